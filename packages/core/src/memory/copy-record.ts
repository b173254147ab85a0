import { freezeInPlace, isPlainContainer } from '../shared/frozen-snapshots.js';

/**
 * The copy the in-memory adapters store and hand out, so callers never share state with the
 * store. Records are plain data (objects, arrays, Dates, primitives); copying those by hand is
 * 5-10× cheaper than structuredClone, which showed as a tenth of the server's time in the
 * benchmark's profiles. Anything else (a Map, a class instance) still goes to structuredClone.
 * An own `__proto__` key (JSON.parse makes them) stays an own key of the copy.
 */
export function copyRecord<T>(value: T): T {
  return copy(value, false) as T;
}

/**
 * A deeply frozen copy: what the in-memory adapters store, so that they can hand the stored
 * record itself to every reader instead of a copy per read (the copy was a seventh of a
 * dashboard GET). A writer replaces a record with a new frozen one and shares the unchanged
 * parts (`Object.freeze({ ...record, likes })`), the way an immutable store does. Dates are
 * copied and frozen (`frozenDate`), but a Date's time cannot be frozen: records are values, and
 * nothing calls `setTime`. The frozen mark is what lets the HTTP adapter reuse their JSON text.
 */
export function frozenCopy<T>(value: T): T {
  return copy(value, true) as T;
}

/** A frozen copy of a date, for a frozen record: see `frozenCopy` on what freezing a Date means. */
export function frozenDate(date: Date): Date {
  return Object.freeze(new Date(date.getTime()));
}

function copy(value: unknown, freeze: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => copy(item, freeze));
    return freeze ? Object.freeze(items) : items;
  }
  if (value instanceof Date) return freeze ? frozenDate(value) : new Date(value.getTime());
  if (!isPlainContainer(value)) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    setOwnMember(out, key, copy((value as Record<string, unknown>)[key], freeze));
  }
  return freeze ? Object.freeze(out) : out;
}

/**
 * `JSON.stringify(record)`, with the Dates under the top-level `dateKeys` formatted here: a
 * Date's `toJSON` called from inside `JSON.stringify` is slow (decision 0617 has the figure).
 */
export function recordJson(record: object, dateKeys: readonly string[]): string {
  // A record's own toJSON would see the copy as `this`: leave such a record to JSON.stringify.
  if (typeof (record as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(record);
  const withTexts: Record<string, unknown> = { ...record };
  for (const key of dateKeys) {
    const value = withTexts[key];
    if (value instanceof Date && value.toJSON === Date.prototype.toJSON) withTexts[key] = Number.isFinite(value.getTime()) ? value.toISOString() : null;
  }
  return JSON.stringify(withTexts);
}

/**
 * The deeply frozen record a store kept as `recordJson(record, dateKeys)`: the top-level `dateKeys`
 * become frozen Dates again, everything else is the parsed data, frozen in place (it is fresh
 * from the parser, shared with no one). Only for records of plain JSON data and top-level dates:
 * a member set to `undefined` does not come back, and neither does any other kind of object.
 */
export function frozenRecordFromJson<T>(text: string, dateKeys: readonly string[]): T {
  const record = JSON.parse(text) as Record<string, unknown>;
  for (const key of dateKeys) {
    const value = record[key];
    if (typeof value === 'string') record[key] = frozenDate(new Date(value));
  }
  return freezeInPlace(record) as T;
}

/**
 * `target[key] = value` as an own data member, also for the key `__proto__` (which JSON.parse
 * makes an own key), where plain assignment would set the prototype instead.
 */
export function setOwnMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
