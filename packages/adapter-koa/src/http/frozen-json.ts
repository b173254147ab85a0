/**
 * The JSON text of an answer's data, byte for byte what `JSON.stringify` writes, with the text
 * of deeply frozen parts remembered. The embedded store hands every reader the same deeply
 * frozen record (decision 0614): its JSON cannot change, so it is written on the second read
 * and reused after that, instead of once per read (serialising a form was a large share of a
 * GET). Decision 0616 has the measurements and the limits.
 *
 * - Only a value that is frozen all the way down (`isDeeplyFrozen`: plain objects and arrays of
 *   data properties, primitives, Dates) is remembered; anything else is serialised every time.
 * - A value is remembered the second time it is met, so a record written once (a create's
 *   answer) costs no memory.
 * - Only the data itself is looked into (`{ form: record }` is a wrapper built per request), and
 *   the items of an array in it (a list's page: each record of `{ forms: [...] }`);
 *   its members go to the memo or to `JSON.stringify` whole. The read use cases hand out frozen
 *   views (`viewPerSnapshot`), so looking deeper would find nothing more, and a store that hands
 *   out fresh objects (MongoDB) would pay for a walk: one level deeper was measurably slower
 *   than `JSON.stringify` on a fresh form (0616).
 * - Texts live as long as their values (a WeakMap): a replaced or deleted record takes its text
 *   with it.
 */
import { isDeeplyFrozen, isPlainContainer, recordText, takeWrittenText } from '@cms/core/snapshots';

const texts = new WeakMap<object, string>();
/** Frozen values met once: remembered when met again. */
const metOnce = new WeakSet<object>();
/** Frozen values with something changeable inside: never remembered. */
const changeable = new WeakSet<object>();

/** How many levels of unfrozen containers are looked into for frozen parts. */
const LOOK_INTO_LEVELS = 1;

/**
 * What `JSON.stringify` writes for `value` as the value of an object member, reusing the
 * remembered text of deeply frozen parts. Undefined when the member would be left out
 * (`undefined`, a function) or when its text depends on the member's name (a `toJSON` other
 * than Date's is given the key): the caller then serialises the whole object itself.
 */
export function memberJson(value: unknown, known?: KnownText): string | undefined {
  const text = partJson(value, LOOK_INTO_LEVELS, known);
  return text === KEY_DEPENDENT ? undefined : text;
}

/**
 * The JSON text of a record this answer writes twice (its entity tag, then its body, which
 * reuses it as `KnownText`), or the one the embedded store just wrote for it. With `remember` (a read's answer), a deeply frozen record's text is
 * also kept for later answers at once; it lives as long as the record, as every remembered text
 * does. A write's answer keeps nothing: its record is new, and may never be read.
 */
export function recordJson(record: object, remember = true): string {
  const known = texts.get(record);
  if (known !== undefined) return known;
  // The text the store wrote for this record a moment ago (a form create's), else our own.
  const text = takeWrittenText(record) ?? recordText(record);
  if (remember && Object.isFrozen(record) && !changeable.has(record) && isDeeplyFrozen(record)) {
    metOnce.delete(record);
    texts.set(record, text);
  }
  return text;
}

/**
 * A part of this answer whose text was just written (`recordJson`, for its entity tag), handed
 * to `memberJson` so the body reuses it: a record not frozen (a create's answer, MongoDB's fresh
 * object) is serialised once per answer, not twice. Only for the answer being written now.
 */
export interface KnownText {
  readonly value: object;
  readonly text: string;
}

/** A part whose text depends on the key it sits under. */
const KEY_DEPENDENT = Symbol('key-dependent');

function partJson(value: unknown, levels: number, known?: KnownText): string | undefined | typeof KEY_DEPENDENT {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  if (hasCustomToJson(value)) return KEY_DEPENDENT;
  if (value === known?.value) return known.text;
  if (Object.isFrozen(value)) return frozenText(value);
  if ((levels === 0 && !Array.isArray(value)) || !isPlainContainer(value)) return recordText(value); // toJSON: checked above
  if (Array.isArray(value)) {
    // An array costs no level: a list's page (`{ forms: [...] }`) is looked into item by item,
    // so each frozen record it holds is written from its remembered text, as a single read is.
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      const item = partJson(value[i], levels === 0 ? 0 : levels - 1, known);
      if (item === KEY_DEPENDENT) return KEY_DEPENDENT;
      out += `${i === 0 ? '' : ','}${item ?? 'null'}`;
    }
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key of Object.keys(value)) {
    const member = partJson((value as Record<string, unknown>)[key], levels - 1, known);
    if (member === KEY_DEPENDENT) return KEY_DEPENDENT;
    if (member === undefined) continue;
    out += `${first ? '' : ','}${JSON.stringify(key)}:${member}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * The text of a frozen value: remembered, or written whole by `recordText` (a snapshot met for
 * the first time, a write's answer, is written once, its Dates by hand: decision 0768).
 * The second time a value is met, its text is remembered if nothing inside can change. Each
 * answer reads each value once, as `JSON.stringify` would (`recordText` reads each member once).
 */
function frozenText(value: object): string | undefined {
  const known = texts.get(value);
  if (known !== undefined) return known;
  const text = recordText(value); // a cycle throws here, as it would without the memo
  if (changeable.has(value)) return text;
  if (!metOnce.has(value)) {
    metOnce.add(value);
    return text;
  }
  metOnce.delete(value);
  if (text !== undefined && isDeeplyFrozen(value)) texts.set(value, text);
  else changeable.add(value);
  return text;
}

const DATE_TO_JSON = Date.prototype.toJSON;

/** A `toJSON` other than Date's: `JSON.stringify` passes it the key, so its text may depend on where it sits. */
function hasCustomToJson(value: object): boolean {
  const toJson = (value as { toJSON?: unknown }).toJSON;
  return typeof toJson === 'function' && toJson !== DATE_TO_JSON;
}
