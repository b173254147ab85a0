/**
 * Record identifiers: 24-character lowercase hexadecimal, the MongoDB ObjectId form, in every
 * storage mode. Layout as ObjectId: 4-byte seconds, 5 random bytes fixed per process, 3-byte counter.
 */
import { randomBytes } from 'node:crypto';

const ID_PATTERN = /^[a-fA-F0-9]{24}$/;
const processRandom = randomBytes(5).toString('hex');
let counter = randomBytes(3).readUIntBE(0, 3);

export function newId(now: Date = new Date()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(now.getTime() / 1000).toString(16).padStart(8, '0').slice(-8);
  return seconds + processRandom + counter.toString(16).padStart(6, '0');
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
