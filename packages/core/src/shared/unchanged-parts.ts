/**
 * An update's new values with every part that did not change taken from the stored record
 * itself. An update runs the whole record through the rules of create, which build each part
 * anew (a form's sections, its notifications) although a PATCH changes one or two of them. A
 * part equal to the stored one is then the stored object, so the embedded store, whose stored
 * records are deeply frozen, keeps sharing it instead of copying it and writing its JSON again
 * (`JsonSnapshotTable.put`, decision 0791). The values are the same either way.
 */
import { isPlainContainer } from './frozen-snapshots.js';

/** `changes` with each member that is the same data as `current`'s member of that name replaced by `current`'s. */
export function sharingUnchanged<T extends object>(changes: T, current: object): T {
  const out = { ...changes } as Record<string, unknown>;
  const stored = current as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const value = out[key];
    if (typeof value !== 'object' || value === null || key === '__proto__') continue;
    const was = stored[key];
    if (was !== value && sameData(value, was)) out[key] = was;
  }
  return out as T;
}

/**
 * Whether two values are the same plain data, written the same way by JSON: equal primitives,
 * or arrays and plain objects with equal members in the same order. Anything else (a Date, a
 * class instance, a member set to `undefined` on one side only) is only the same as itself.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (!isPlainContainer(a) || !isPlainContainer(b)) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameData(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  const others = Object.keys(b);
  if (keys.length !== others.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    if (key !== others[i] || !sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}
