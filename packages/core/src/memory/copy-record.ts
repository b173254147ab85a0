import { isPlainContainer } from '../shared/frozen-snapshots.js';

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
    const item = copy((value as Record<string, unknown>)[key], freeze);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return freeze ? Object.freeze(out) : out;
}
