/**
 * A `SnapshotTable` whose rows are kept as JSON text, the way a document store keeps documents,
 * for records created in bulk and then mostly left alone (forms: decision 0617). A read parses
 * the text into a deeply frozen snapshot; the snapshots of the last `recentLimit` rows read are
 * kept, so a row read over and over is parsed once and every reader gets the same snapshot. The
 * oldest read goes first (a hit does not move a row up: that would cost every read two more map
 * operations). Rows are plain JSON data plus Dates under the top-level `dateKeys`. `put`
 * replaces a row's text and makes the row's recent snapshot a frozen copy of the record, the one
 * a read would parse from that text (an update is read again: the next update reads it first);
 * a record whose copy would not be that (see `frozenJsonCopy`) is parsed by the next read instead.
 */
import { freezeInPlace, isPlainContainer, markSnapshot } from '../shared/frozen-snapshots.js';
import { setBounded } from '../shared/bounded-map.js';
import { isPlainDate, recordText } from '../shared/record-text.js';
import { noteWrittenText } from '../shared/written-texts.js';
import { frozenDate, setOwnMember } from './snapshot-table.js';

export class JsonSnapshotTable<R extends object> {
  // TypeScript-private rather than #private, as in SnapshotTable: the store fingerprint reads them.
  private readonly texts = new Map<string, string>();
  /**
   * The recent reads: a cache of what `texts` holds, which any read (a refused request's too)
   * fills. Non-enumerable, so the store fingerprint, which compares stored data, leaves it out.
   */
  private declare readonly recent: Map<string, R>;

  constructor(
    private readonly dateKeys: readonly string[],
    private readonly recentLimit: number,
  ) {
    Object.defineProperty(this, 'recent', { value: new Map<string, R>(), enumerable: false });
  }

  has(key: string): boolean {
    return this.texts.has(key);
  }

  /** Stores the record's text when `key` is free (a copy: the caller's later changes stay its own); false when taken. */
  insert(key: string, record: R): boolean {
    if (this.texts.has(key)) return false;
    this.texts.set(key, writtenJson(record));
    return true;
  }

  /** Stores the record's text under `key`, replacing what was there, and its snapshot among the recent reads. */
  put(key: string, record: R): void {
    this.texts.set(key, writtenJson(record));
    const snapshot = frozenJsonCopy<R>(record, this.dateKeys);
    if (snapshot === undefined) this.recent.delete(key);
    else setBounded(this.recent, key, markSnapshot(snapshot), this.recentLimit);
  }

  delete(key: string): boolean {
    this.recent.delete(key);
    return this.texts.delete(key);
  }

  /** The row's snapshot: deeply frozen, shared with every reader while it is among the recent reads. */
  get(key: string): R | undefined {
    const recent = this.recent.get(key);
    if (recent !== undefined) return recent;
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    return setBounded(this.recent, key, markSnapshot(frozenRecordFromJson<R>(text, this.dateKeys)), this.recentLimit);
  }
}

/** `recordText`, noted for the answer that writes the same record next (`written-texts`). */
function writtenJson(record: object): string {
  const text = recordText(record);
  noteWrittenText(record, text);
  return text;
}

/**
 * The deeply frozen record kept as `recordText(record)`: the top-level `dateKeys`
 * become frozen Dates again, everything else is the parsed data, frozen in place (it is fresh
 * from the parser, shared with no one). A member set to `undefined` does not come back, and
 * neither does any other kind of object.
 */
export function frozenRecordFromJson<T>(text: string, dateKeys: readonly string[]): T {
  const record = JSON.parse(text) as Record<string, unknown>;
  for (const key of dateKeys) {
    const value = record[key];
    if (typeof value === 'string') record[key] = frozenDate(new Date(value));
  }
  return freezeInPlace(record) as T;
}

/** What `frozenJsonCopy` gives up on: a value whose JSON text does not read back as its copy. */
const NOT_PLAIN = Symbol('not plain JSON data');

/**
 * `frozenRecordFromJson(recordText(record), dateKeys)` without the text: a deeply frozen copy of
 * the record, several times cheaper than parsing the text (decision 0770).
 * Undefined, function and symbol members are left out, as JSON leaves them out; the top-level
 * `dateKeys` holding valid plain Dates become frozen Dates. Undefined when the text would read
 * back as something other than the copy: a Date anywhere else or a string under a date key, a
 * number JSON writes as null, an undefined array item, a `toJSON` method, an object that is not
 * plain data. Getters are read once more, so a record must be data, as every row of the table is.
 */
export function frozenJsonCopy<T>(record: object, dateKeys: readonly string[]): T | undefined {
  if (Array.isArray(record) || !jsonContainer(record)) return undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    const copy = dateKeys.includes(key) && (typeof value === 'string' || value instanceof Date) ? dateCopy(value) : jsonCopy(value);
    if (copy === NOT_PLAIN) return undefined;
    if (copy !== undefined) setOwnMember(out, key, copy);
  }
  return Object.freeze(out) as T;
}

/** A date member as its JSON reads back: a plain, valid Date is copied; a string (parsed as a date on read) is not copied. */
function dateCopy(value: string | Date): unknown {
  return isPlainDate(value) && Number.isFinite(value.getTime()) ? frozenDate(value) : NOT_PLAIN;
}

/** A frozen copy of a JSON value; `undefined` for what JSON leaves out of an object, NOT_PLAIN for what it would change. */
function jsonCopy(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value + 0 : NOT_PLAIN; // `+ 0`: -0 is written as 0
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
    case 'bigint':
      return NOT_PLAIN;
  }
  if (value === null) return null;
  if (!jsonContainer(value as object)) return NOT_PLAIN;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i += 1) {
      const item = jsonCopy(value[i]);
      if (item === NOT_PLAIN || item === undefined) return NOT_PLAIN; // JSON writes an absent item as null
      out[i] = item;
    }
    return Object.freeze(out);
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value as object)) {
    const member = jsonCopy((value as Record<string, unknown>)[key]);
    if (member === NOT_PLAIN) return NOT_PLAIN;
    if (member !== undefined) setOwnMember(out, key, member);
  }
  return Object.freeze(out);
}

/** Plain data (`isPlainContainer`) that JSON writes member by member: no `toJSON` of its own. */
function jsonContainer(value: object): boolean {
  return isPlainContainer(value) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
