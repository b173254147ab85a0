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
import { isoTimestamp } from '../shared/iso-timestamp.js';
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

  /**
   * Stores the record's text under `key`, replacing what was there, and its snapshot among the
   * recent reads. Parts of the record that are the current snapshot's own (an update that kept
   * them: `sharingUnchanged`) stay shared, and their text is written once for all updates.
   */
  put(key: string, record: R): void {
    const current = this.recent.get(key);
    this.texts.set(key, writtenJson(record, current));
    const snapshot = frozenJsonCopy<R>(record, this.dateKeys, current);
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

/**
 * `recordText`, noted for the answer that writes the same record next (`written-texts`). With the
 * row's current snapshot, the members the record shares with it are written from their
 * remembered text (`sharingText`).
 */
function writtenJson(record: object, current?: object): string {
  const text = (current !== undefined && sharingText(record, current)) || recordText(record);
  noteWrittenText(record, text);
  return text;
}

/**
 * The JSON texts of the parts of this table's snapshots (deeply frozen JSON data, so their text
 * never changes), written the first time an update shares them. They live as long as the parts.
 */
const partTexts = new WeakMap<object, string>();

/**
 * `recordText(record)` written member by member, with the plain objects and arrays it shares
 * with `current` (a snapshot of this table) from `partTexts`; undefined when it shares none, or
 * when a member's text could depend on its key (a `toJSON` other than Date's), for `recordText`.
 * A record that shares nothing is then written twice; an update that changes every object member
 * of a form is rare, and a first pass to find out cost the common PATCH more (decision 0791).
 */
function sharingText(record: object, current: object): string | undefined {
  if (!isPlainContainer(record) || Array.isArray(record) || typeof (record as { toJSON?: unknown }).toJSON === 'function') return undefined;
  const was = current as Record<string, unknown>;
  let out = '';
  let sharesAPart = false;
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    let text: string | undefined;
    if (typeof value !== 'object' || value === null) text = primitiveText(value);
    else if (isPlainDate(value)) text = Number.isFinite(value.getTime()) ? `"${isoTimestamp(value)}"` : 'null';
    else if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
    else if (value === was[key] && key !== '__proto__') {
      sharesAPart = true;
      text = partTexts.get(value);
      if (text === undefined) partTexts.set(value, (text = JSON.stringify(value)));
    } else text = JSON.stringify(value);
    if (text !== undefined) out += `${out === '' ? '{' : ','}${keyText(key)}:${text}`;
  }
  if (!sharesAPart) return undefined;
  return out === '' ? '{}' : `${out}}`;
}

/**
 * `JSON.stringify` of a primitive. Each call of `JSON.stringify` costs ~0.3 µs before it writes
 * anything, which a member-by-member text pays per member: the common values (a string with
 * nothing to escape, a finite number, a boolean, null) are written here.
 */
function primitiveText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null'; // String(-0) is "0", as in JSON
    case 'boolean':
      return value ? 'true' : 'false';
  }
  return value === null ? 'null' : JSON.stringify(value); // undefined, a function, a symbol: left out; a bigint throws
}

/** What `JSON.stringify` writes other than as itself: quotes, backslashes, control characters and (unpaired) surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** Member names' texts: a table has a few dozen names. */
const keyTexts = new Map<string, string>();

function keyText(key: string): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = JSON.stringify(key);
    if (keyTexts.size < 1024) keyTexts.set(key, text);
  }
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
 * With `current`, a snapshot of the table, a plain object or array that is `current`'s own member
 * of the same name is kept as it is: it is such a copy already.
 */
export function frozenJsonCopy<T>(record: object, dateKeys: readonly string[], current?: object): T | undefined {
  if (Array.isArray(record) || !jsonContainer(record)) return undefined;
  const was = current as Record<string, unknown> | undefined;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const value = (record as Record<string, unknown>)[key];
    // A part of the current snapshot is the frozen copy already.
    const shared = was !== undefined && typeof value === 'object' && value !== null && value === was[key] && key !== '__proto__' && !dateKeys.includes(key);
    const copy = shared ? value : dateKeys.includes(key) && (typeof value === 'string' || value instanceof Date) ? dateCopy(value) : jsonCopy(value);
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
