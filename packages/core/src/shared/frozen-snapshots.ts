/**
 * Working with deeply frozen snapshots, the records the embedded store hands out (decision
 * 0614): recognising one, and deriving a view of it once instead of on every read (0616).
 */

/** Records the embedded store built deeply frozen (`SnapshotTable`): known without a walk. */
const snapshots = new WeakSet<object>();

/** Registers a record built deeply frozen by construction; only the embedded store's tables call it. */
export function markSnapshot<T extends object>(record: T): T {
  snapshots.add(record);
  return record;
}

/**
 * True when nothing in the value can change: a primitive, a Date (records are values and nothing
 * calls `setTime`: 0614), or a frozen plain object or array whose own properties are all data
 * properties holding such values. Functions, accessors, Maps and class instances are not. A
 * snapshot of the embedded store is known to be one without looking into it.
 */
export function isDeeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  if (snapshots.has(value)) return true;
  if (Object.getPrototypeOf(value) === Date.prototype) return Reflect.ownKeys(value).length === 0;
  if (!Object.isFrozen(value) || !isPlainContainer(value)) return false;
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Reflect.ownKeys(descriptors)) {
    const descriptor = descriptors[key as keyof typeof descriptors]!;
    if (!('value' in descriptor) || !isDeeplyFrozen(descriptor.value)) return false;
  }
  return true;
}

/** An array, or an object of the Object prototype (or none): plain data, not a class instance or a Map. */
export function isPlainContainer(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return Array.isArray(value) ? prototype === Array.prototype : prototype === Object.prototype || prototype === null;
}

/** A record's view: one per snapshot for readers, and one for a write's answer (`fresh`). */
export interface SnapshotView<R extends object, V extends object> {
  /**
   * For a read: a deeply frozen record's view is worked out once, frozen, and handed to every
   * reader of that snapshot; the HTTP adapter then writes its JSON once as well (0616). A record
   * that is not deeply frozen (MongoDB's fresh documents) gets a fresh view per call.
   */
  (record: R): V;
  /**
   * For the answer of a write, about the snapshot it just stored: the view, neither frozen nor
   * remembered (or the one a read already remembered). That snapshot may never be read; freezing
   * its view and keeping it cost each update that answered a stored snapshot 2-10 µs of
   * JavaScript (decision 0844). A later read works its own view out once, as for any snapshot it
   * meets first.
   */
  readonly fresh: (record: R) => V;
}

/** `toView` with a view per deeply frozen snapshot for readers, and `fresh` for a write's answer (`SnapshotView`). */
export function viewPerSnapshot<R extends object, V extends object>(toView: (record: R) => V): SnapshotView<R, V> {
  const views = new WeakMap<R, V>();
  /** Frozen, but with something changeable inside: never given a shared view. */
  const changeable = new WeakSet<R>();
  const shared = (record: R): V => {
    const known = views.get(record);
    if (known !== undefined) return known;
    const view = toView(record);
    if (!Object.isFrozen(record) || changeable.has(record)) return view;
    if (!isDeeplyFrozen(record)) {
      changeable.add(record);
      return view;
    }
    // The record's parts are deeply frozen already and the view's own are frozen here, so the view
    // is a snapshot too: marked, the JSON memo and entity tags know it without a walk.
    views.set(record, markSnapshot(freezeInPlace(view)));
    return view;
  };
  const fresh = (record: R): V => views.get(record) ?? toView(record);
  return Object.assign(shared, { fresh });
}

/**
 * Freezes `value` and everything in it that is not frozen yet, in place, and returns it: for
 * values freshly built and shared with no one (a view, the output of `JSON.parse`). Frozen parts
 * are not walked into.
 */
export function freezeInPlace<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const key of Object.keys(value)) freezeInPlace((value as Record<string, unknown>)[key]);
    Object.freeze(value);
  }
  return value;
}
