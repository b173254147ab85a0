/**
 * The embedded store's one storage seam (decisions 0614, 0616, 0617, 0721). Every in-memory
 * repository keeps its records in a `SnapshotTable` (or, for forms, a `JsonSnapshotTable`), so
 * what makes the store fast holds by construction instead of by each repository remembering:
 *
 * - A stored record is a deeply frozen snapshot, and a read hands that snapshot itself to every
 *   reader (no copy per read). Nothing a reader does can change the store.
 * - A write stores a new snapshot: `insert` and `put` a frozen copy of what they are given (so
 *   the caller's later changes stay its own); `update` the successor a function builds from the
 *   current snapshot, sharing its unchanged parts (`{ ...current, likes }`) and copying, frozen,
 *   anything new in it (a caller's Date, array or object).
 * - Each snapshot is registered (`markSnapshot`), so views and the HTTP adapter's JSON memo
 *   know it is deeply frozen without walking it.
 * - Each key's record lives in a slot (`RowSlot`) that stays the same while the key holds a
 *   record, so an index that keeps slots reads its rows without a lookup by key (decision 0818).
 */
import { isDeeplyFrozen, isPlainContainer, markSnapshot } from '../shared/frozen-snapshots.js';

/**
 * Where one key's record lives in a table: the same object from the key's insert to its delete,
 * its `row` the current snapshot, undefined once the record is deleted (a key inserted again
 * gets a new slot). Reading `row` is a read of the table, as `get(key)` is.
 */
export interface RowSlot<R> {
  readonly key: string;
  readonly row: R | undefined;
}

/** A slot's record, for `collectPage` over an index of slots. */
export function rowOf<R>(slot: RowSlot<R>): R | undefined {
  return slot.row;
}

class Slot<R> implements RowSlot<R> {
  constructor(
    readonly key: string,
    public row: R | undefined,
  ) {}
}

export class SnapshotTable<R extends object> {
  // TypeScript-private rather than #private: tests that fingerprint the whole store (server's
  // store-fingerprint) read a repository's nested state through the inspector.
  private readonly rows = new Map<string, Slot<R>>();
  /** Keys given a record so far (inserts, and puts of a free key); never goes down. */
  #added = 0;

  get size(): number {
    return this.rows.size;
  }

  /**
   * How many times a free key has been given a record since the table was made. While it stays
   * the same, a list of the keys taken earlier still holds every key the table has (some may have
   * been deleted since): what lets a reader keep an ordering of the keys between calls.
   */
  get added(): number {
    return this.#added;
  }

  /** The stored snapshot: deeply frozen, shared with every reader. */
  get(key: string): R | undefined {
    return this.rows.get(key)?.row;
  }

  /**
   * The key's slot while it holds a record. An index of a large table keeps slots rather than
   * keys: walking it then reads rows in the index's order, where a lookup by key per row would
   * jump through a hash table that no longer fits the processor's caches.
   */
  slot(key: string): RowSlot<R> | undefined {
    return this.rows.get(key);
  }

  has(key: string): boolean {
    return this.rows.has(key);
  }

  /** Stores a frozen copy of `record` when `key` is free and answers it; undefined when the key is taken. */
  insert(key: string, record: R): R | undefined {
    return this.insertSlot(key, record)?.row;
  }

  /** `insert`, answering the new record's slot (for an index of slots) instead of its snapshot. */
  insertSlot(key: string, record: R): RowSlot<R> | undefined {
    if (this.rows.has(key)) return undefined;
    const slot = new Slot(key, markSnapshot(frozenCopy(record)));
    this.rows.set(key, slot);
    this.#added += 1;
    return slot;
  }

  /** Stores a frozen copy of `record` under `key`, replacing what was there, and answers it. */
  put(key: string, record: R): R {
    const snapshot = markSnapshot(frozenCopy(record));
    const slot = this.rows.get(key);
    if (slot === undefined) {
      this.rows.set(key, new Slot(key, snapshot));
      this.#added += 1;
    } else slot.row = snapshot;
    return snapshot;
  }

  /**
   * Replaces the record with the successor `change` builds from it, without an await in between
   * (as atomic as one MongoDB update), and answers it; undefined when there is no record.
   * `change` returns a new object (`{ ...current, likes }`), which becomes the snapshot: members
   * it shares with the current snapshot stay shared, others are replaced by frozen copies.
   */
  update(key: string, change: (current: R) => R): R | undefined {
    const slot = this.rows.get(key);
    if (slot === undefined) return undefined;
    const current = slot.row!;
    const snapshot = markSnapshot(successorOf(current, change(current)));
    slot.row = snapshot;
    return snapshot;
  }

  /**
   * `update` for a `change` that builds its successor deeply frozen itself: sharing the current
   * snapshot's parts, freezing every object it builds, and copying frozen (`frozenCopy`) what it
   * brings in. Stored as it is, without `update`'s look into each new member, which walks a new
   * frozen subtree whole (a template patch's successor is such a tree). A successor that is not
   * even frozen at its top is refused.
   */
  updateFrozen(key: string, change: (current: R) => R): R | undefined {
    const slot = this.rows.get(key);
    if (slot === undefined) return undefined;
    const current = slot.row!;
    const next = change(current);
    if (next === current) return current;
    if (!Object.isFrozen(next)) throw new TypeError('updateFrozen: the successor must be built frozen');
    const snapshot = markSnapshot(next);
    slot.row = snapshot;
    return snapshot;
  }

  delete(key: string): boolean {
    const slot = this.rows.get(key);
    if (slot === undefined) return false;
    slot.row = undefined;
    return this.rows.delete(key);
  }

  /**
   * Compare-and-delete: removes the record only when `holds(current)` is true, without an await
   * in between (as atomic as one MongoDB delete with the condition in its filter), and answers
   * the snapshot removed; undefined when there is no record or the condition does not hold.
   */
  deleteIf(key: string, holds: (current: R) => boolean): R | undefined {
    const slot = this.rows.get(key);
    if (slot === undefined) return undefined;
    const current = slot.row!;
    if (!holds(current)) return undefined;
    slot.row = undefined;
    this.rows.delete(key);
    return current;
  }

  *values(): IterableIterator<R> {
    for (const slot of this.rows.values()) yield slot.row!;
  }
}

/** A `deleteIf` condition: the record's `updatedAt` is still `expected` (always true without one). */
export function stillAt(record: { readonly updatedAt: Date }, expected: Date | undefined): boolean {
  return expected === undefined || record.updatedAt.getTime() === expected.getTime();
}

/**
 * `next` made a snapshot: frozen in place (it is the fresh object `change` built, as
 * `{ ...current, … }` is), its top-level members shared when they are the current record's and
 * replaced by frozen copies otherwise. Freezing in place spares the hot path (a reaction's new
 * totals) a second copy of the record.
 */
function successorOf<R extends object>(current: R, next: R): R {
  if (next === current) return current;
  if (Object.isFrozen(next) || !isPlainContainer(next)) return isDeeplyFrozen(next) ? next : frozenCopy(next);
  const was = current as Record<string, unknown>;
  const out = next as Record<string, unknown>;
  for (const key of Object.keys(out)) {
    const value = out[key];
    // (`was[key]` of `__proto__` is a prototype, which no record member is; `out[key] =` sets an own key.)
    if (typeof value === 'object' && value !== null && value !== was[key]) out[key] = frozenMember(value);
  }
  return Object.freeze(next);
}

/** A new member of a successor: shared when already deeply frozen (and not a Date, which cannot be frozen), else copied. */
function frozenMember(value: object): unknown {
  if (!(value instanceof Date) && Object.isFrozen(value) && isDeeplyFrozen(value)) return value;
  return frozenCopy(value);
}

/**
 * A deeply frozen copy of plain data (objects, arrays, Dates, primitives), sharing no object with
 * the original. Copying by hand is several times cheaper than structuredClone (decision 0602).
 * Anything else (a Map, a class instance) is a bug: it could not be frozen, so it is refused.
 * Dates are copied and frozen, but a Date's time cannot be frozen: records are values, and
 * nothing calls `setTime` (0614). An own `__proto__` key (JSON.parse makes them) stays an own key.
 */
export function frozenCopy<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as T;
  if (value instanceof Date) return frozenDate(value) as T;
  if (!isPlainContainer(value)) throw new TypeError(`the embedded store keeps plain data only, not ${value.constructor?.name ?? 'this object'}`);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) setOwnMember(out, key, frozenCopy((value as Record<string, unknown>)[key]));
  return Object.freeze(out) as T;
}

/** A frozen copy of a date, for a frozen record: see `frozenCopy` on what freezing a Date means. */
export function frozenDate(date: Date): Date {
  return Object.freeze(new Date(date.getTime()));
}

/**
 * `target[key] = value` as an own data member, also for the key `__proto__` (which JSON.parse
 * makes an own key), where plain assignment would set the prototype instead.
 */
export function setOwnMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
