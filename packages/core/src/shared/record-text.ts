/**
 * `JSON.stringify(record)` for a record of plain data, byte for byte, with the Dates among its
 * own members written by `isoTimestamp`. Inside `JSON.stringify` a Date costs a call of its
 * `toJSON` and then of `toISOString`: 0.7-0.8 µs a Date on this machine kind, where the whole rest
 * of a category's text costs 0.8. Every record of the stores carries `createdAt` and `updatedAt`,
 * and every answer that writes a record afresh (a write's, a first read's) paid for both
 * (decision 0768).
 *
 * The record is copied (a spread) with its Dates' texts in their place, and the copy goes to
 * `JSON.stringify`: the text is the one `JSON.stringify` writes (a member's own `toJSON` is still
 * given its key), and one flat string. Writing member by member was as fast for small records,
 * slower for a form, and left a rope of pieces that every answer reusing the text walked again
 * (a list page of remembered records: 8-10 µs more). Each member is read once, by the copy. A
 * record that is not a plain object, or has a `toJSON` of its own (which would see the copy as
 * `this`), goes to `JSON.stringify` whole.
 */
import { isoTimestamp } from './iso-timestamp.js';

const DATE_TO_JSON = Date.prototype.toJSON;
const DATE_TO_ISO = Date.prototype.toISOString;

export function recordText(record: object): string {
  const prototype: unknown = Object.getPrototypeOf(record);
  if ((prototype !== Object.prototype && prototype !== null) || typeof (record as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(record);
  // One read of each member, as JSON.stringify makes: a getter's record is written as it reads now.
  const copy: Record<string, unknown> = { ...record };
  for (const key of Object.keys(copy)) {
    const date = copy[key];
    if (!isPlainDate(date)) continue; // not a Date, or one whose own methods JSON.stringify must call
    const text = Number.isFinite(date.getTime()) ? isoTimestamp(date) : null;
    if (key === '__proto__') Object.defineProperty(copy, key, { value: text, enumerable: true, writable: true, configurable: true });
    else copy[key] = text;
  }
  return JSON.stringify(copy);
}

/** A Date of this realm with Date's own `toJSON` and `toISOString`: its JSON text is its ISO time (or null). */
export function isPlainDate(value: unknown): value is Date {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Date.prototype) return false;
  const date = value as Date;
  return date.toJSON === DATE_TO_JSON && date.toISOString === DATE_TO_ISO;
}
