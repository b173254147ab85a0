/**
 * Keyset pages over `(createdAt, id)`, newest first, and the cursor that carries the position
 * between pages. A cursor is opaque and signed (HMAC-SHA256 with the service's cursor secret)
 * over the list it came from, the tenant and the list's filters: a cursor of another list, other
 * filters or another tenant, or one changed by hand, is refused with `INVALID_CURSOR` instead of
 * being trusted (docs/decisions/0760-list-cursors-and-entity-tags.md).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setBounded } from './bounded-map.js';
import { DomainError, validationError } from './domain-error.js';
import { ErrorCodes } from './error-codes.js';
import { isWellFormedId } from './ids.js';

/** Where a page starts: after the record with this creation time and id (in list order). */
export interface KeysetPosition {
  readonly createdAt: Date;
  readonly id: string;
}

/** What a repository's list method is asked for: records strictly after `after`, at most `limit`. */
export interface PageQuery {
  readonly after: KeysetPosition | null;
  readonly limit: number;
  /** Default newest first (lists); oldest first serves exports. */
  readonly order?: 'newestFirst' | 'oldestFirst';
}

/** What a list use case takes from its caller (query parameters, unchecked). */
export interface PageInput {
  readonly limit?: unknown;
  readonly cursor?: unknown;
}

/** A page of a list under one record (a form's submissions, an article's comments). */
export interface NestedPageInput extends PageInput {
  /**
   * The inbound adapter's own check of the request's query (its schema), for a list under a
   * record: run once that record is found, so its 400 and 404 come first (§6.1, §6.6).
   */
  readonly checkQuery?: (() => void) | undefined;
}

export interface Page<T> {
  readonly items: T[];
  readonly nextCursor: string | null;
}

export const PAGE_LIMITS = { default: 20, max: 100 } as const;
/** `limit` as query text: an integer 1-100. */
export const PAGE_LIMIT_PATTERN = '^(100|[1-9][0-9]?)$';

/**
 * The list a cursor belongs to: its name, the tenant and its filters in a fixed order. Two
 * scopes are the same list exactly when their texts are equal.
 */
export function listScope(list: string, tenantId: string, filters: Readonly<Record<string, string | null>> = {}): string {
  const parts = Object.keys(filters)
    .sort()
    .map((key) => `${key}=${filters[key] ?? ''}`);
  return [list, tenantId, ...parts].join('\u0000');
}

const MAC_BYTES = 16;

/** How many signed cursors `PageCursors` keeps for signing and checking again (a few hundred bytes each). */
const SIGNED_KEPT = 256;

/** A cursor signed lately: its text and the position it carries. */
interface SignedCursor {
  readonly text: string;
  readonly createdAtMs: number;
  readonly id: string;
}

/** Signs and checks list cursors with one secret (every instance of a service must share it). */
export class PageCursors {
  readonly #secret: Buffer;
  /**
   * Cursors signed lately, by scope and position: a list's first page read again and again (a
   * dashboard polling it) ends at the same record, so its next cursor is the same text, and an
   * HMAC per read showed in the list's profile. The oldest goes first. `#checked` holds the same
   * cursors by scope and the payload's text as the cursor shows it, for `decode`: checking a
   * cursor of a kept position compares it with the kept text in constant time and takes the
   * position kept with it; any other is signed again and its MAC compared in constant time
   * (decision 0772). Both maps are set in the same order, so they hold the same cursors.
   */
  readonly #signed = new Map<string, SignedCursor>();
  readonly #checked = new Map<string, SignedCursor>();

  /** `secret` absent: a random one, valid for this process only. */
  constructor(secret?: string) {
    this.#secret = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  encode(scope: string, position: KeysetPosition): string {
    const createdAtMs = position.createdAt.getTime();
    const payload = `${createdAtMs.toString(36)}.${position.id}`;
    const key = `${scope}\u0001${payload}`;
    const known = this.#signed.get(key);
    if (known !== undefined) return known.text;
    const payloadText = Buffer.from(payload, 'utf8').toString('base64url');
    const signed: SignedCursor = { text: `${payloadText}.${this.#mac(scope, payload).toString('base64url')}`, createdAtMs, id: position.id };
    setBounded(this.#checked, `${scope}\u0001${payloadText}`, signed, SIGNED_KEPT);
    return setBounded(this.#signed, key, signed, SIGNED_KEPT).text;
  }

  /**
   * The position a cursor carries; `INVALID_CURSOR` unless this service issued it for `scope`.
   * A cursor of a position signed lately (the next page of a list a client is paging through) is
   * compared, in constant time, with the text kept for that position, instead of signing it again:
   * the lookup is by the position, which the cursor shows in clear, never by its MAC (0772).
   */
  decode(scope: string, cursor: string): KeysetPosition {
    const dot = cursor.indexOf('.');
    if (dot <= 0 || cursor.length > 200) throw invalidCursor();
    const payloadText = cursor.slice(0, dot);
    const kept = this.#checked.get(`${scope}\u0001${payloadText}`);
    if (kept !== undefined) {
      // Only one text is the cursor of this position: the one kept.
      if (!sameText(cursor, kept.text)) throw invalidCursor();
      return { createdAt: new Date(kept.createdAtMs), id: kept.id };
    }
    const payloadBytes = Buffer.from(payloadText, 'base64url');
    const payload = payloadBytes.toString('utf8');
    const macText = cursor.slice(dot + 1);
    const mac = Buffer.from(macText, 'base64url');
    // Base64url decoding skips characters outside its alphabet and ignores a last character's
    // unused bits: only the text this service writes for these bytes is the cursor it issued.
    if (payloadBytes.toString('base64url') !== payloadText || mac.toString('base64url') !== macText) throw invalidCursor();
    if (mac.length !== MAC_BYTES || !timingSafeEqual(mac, this.#mac(scope, payload))) throw invalidCursor();
    return positionOf(payload);
  }

  #mac(scope: string, payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(scope).update('\u0001').update(payload).digest().subarray(0, MAC_BYTES);
  }
}

/** The position a verified payload names (`<createdAt ms in base 36>.<id>`). */
function positionOf(payload: string): KeysetPosition {
  const [time, id, extra] = payload.split('.');
  const ms = Number.parseInt(time ?? '', 36);
  if (extra !== undefined || !Number.isSafeInteger(ms) || !isWellFormedId(id)) throw invalidCursor();
  return { createdAt: new Date(ms), id };
}

/**
 * Whether two texts are equal, compared in time that depends on their length only (the
 * lengths are public: a cursor's MAC has one length). Every character is compared, whatever
 * the first difference, as `timingSafeEqual` does, without two buffers made per check.
 */
function sameText(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < given.length; i += 1) difference |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return difference === 0;
}

/** 400 `Invalid cursor`: also for a cursor that is not one string (a repeated query parameter). */
export function invalidCursor(): DomainError {
  return new DomainError(ErrorCodes.INVALID_CURSOR, 'Invalid cursor');
}

/** `limit` from a caller: an integer 1-100 (a query string's digits count), default 20. */
export function pageLimit(value: unknown): number {
  if (value === undefined || value === null) return PAGE_LIMITS.default;
  const limit = typeof value === 'string' && /^\d{1,4}$/.test(value) ? Number(value) : value;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > PAGE_LIMITS.max) {
    throw validationError('limit', `must be an integer from 1 to ${PAGE_LIMITS.max}`);
  }
  return limit;
}

/**
 * One page of a list: checks `limit` and the cursor, asks `fetch` for one record more than the
 * page holds (so the last page is known without another read) and signs the next position.
 */
export async function readPage<R extends KeysetPosition>(
  cursors: PageCursors,
  scope: string,
  input: PageInput,
  fetch: (query: PageQuery) => Promise<readonly R[]>,
): Promise<Page<R>> {
  const limit = pageLimit(input.limit);
  const cursor = input.cursor;
  if (cursor !== undefined && cursor !== null && typeof cursor !== 'string') throw invalidCursor();
  const after = typeof cursor === 'string' ? cursors.decode(scope, cursor) : null;
  const found = await fetch({ after, limit: limit + 1 });
  const items = found.slice(0, limit);
  const last = items[items.length - 1];
  const nextCursor = found.length > limit && last ? cursors.encode(scope, last) : null;
  return { items, nextCursor };
}

/** List order: `createdAt` descending, then `id` descending. Negative when `a` comes first. */
export function compareNewestFirst(a: KeysetPosition, b: KeysetPosition): number {
  const byTime = b.createdAt.getTime() - a.createdAt.getTime();
  if (byTime !== 0) return byTime;
  return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
