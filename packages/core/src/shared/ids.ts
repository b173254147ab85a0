/**
 * Record identifiers: 24-character lowercase hexadecimal, the MongoDB ObjectId form, in every
 * storage mode. Layout as ObjectId: 4-byte seconds, 5 random bytes fixed per process, 3-byte counter.
 *
 * A record's id is made in its tenant's own sequence (`scope`): 5 random bytes and a counter of
 * the tenant's, both starting at random. With one counter for every tenant, the gap between two
 * ids a tenant was given counted exactly the records every other tenant created meanwhile (§1.5:
 * another tenant's records are as if they did not exist). Ids stay unique: tenants' 5 bytes
 * differ (a clash is a 2^-40 chance per pair of tenants, and a counter value would have to
 * meet in the same second too), and within a tenant they still grow in the order they are made.
 */
import { randomBytes } from 'node:crypto';

const ID_PATTERN = /^[a-fA-F0-9]{24}$/;
/** A sequence ids are made in: 5 random bytes and a 3-byte counter, both starting at random. */
interface IdSequence {
  readonly random: string;
  counter: number;
}

const newSequence = (): IdSequence => ({ random: randomBytes(5).toString('hex'), counter: randomBytes(3).readUIntBE(0, 3) });

/** The process's own sequence: ids no tenant is shown (API keys, outbox jobs). */
const processSequence = newSequence();
/** Each scope's (tenant's) own sequence; one entry per tenant the process made ids for. */
const scopes = new Map<string, IdSequence>();

/** A new id; `scope`, the tenant a record belongs to, gives it that tenant's sequence. */
export function newId(now: Date = new Date(), scope?: string): string {
  let sequence = scope === undefined ? processSequence : scopes.get(scope);
  if (sequence === undefined) scopes.set(scope!, (sequence = newSequence()));
  sequence.counter = (sequence.counter + 1) % 0x1000000;
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0').slice(-8);
  return seconds + sequence.random + sequence.counter.toString(16).padStart(6, '0');
}

export function isWellFormedId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Well-formed ids are case-insensitive: upper-case hex finds the same record. */
export function canonicalId(value: string): string {
  return value.toLowerCase();
}

export const ID_PATTERN_SOURCE = ID_PATTERN.source;

/** What a validation message says of a value that is not an id, in core and over HTTP alike. */
export const ID_WORDS = 'must be an id of 24 hexadecimal characters';
