/**
 * The embedded store's answer to MongoDB's `{tenantId, …, createdAt: -1, _id: -1}` indexes: per
 * group (a tenant, or a tenant's form or article) the record keys ordered by `(createdAt, id)`,
 * so a list page starts with a binary search at its cursor instead of walking every record
 * before it. Records are created with the clock's time, so an insert almost always appends.
 * Each entry keeps what its repository reads the record by (`T`): a key, or the record's slot in
 * a `SnapshotTable`, which a page or an export then reads without a lookup by key (decision 0818).
 */
import { compareNewestFirst, type KeysetPosition, type PageQuery } from '../shared/page-cursor.js';

interface Entry<T> extends KeysetPosition {
  /** What the repository reads the record by. */
  readonly item: T;
}

export class KeysetIndex<T = string> {
  /** Group → entries, oldest first. */
  readonly #groups = new Map<string, Entry<T>[]>();

  add(group: string, position: KeysetPosition, item: T): void {
    let entries = this.#groups.get(group);
    if (!entries) this.#groups.set(group, (entries = []));
    const entry: Entry<T> = { createdAt: new Date(position.createdAt.getTime()), id: position.id, item };
    const last = entries[entries.length - 1];
    if (!last || compareNewestFirst(entry, last) < 0) entries.push(entry);
    else entries.splice(firstNotBefore(entries, entry), 0, entry);
  }

  remove(group: string, position: KeysetPosition): void {
    const entries = this.#groups.get(group);
    if (!entries) return;
    const at = firstNotBefore(entries, position);
    if (entries[at]?.id === position.id) entries.splice(at, 1);
    if (entries.length === 0) this.#groups.delete(group);
  }

  /** How many entries the group holds. */
  count(group: string): number {
    return this.#groups.get(group)?.length ?? 0;
  }

  /** Removes the group and answers its items, oldest first. */
  take(group: string): T[] {
    const entries = this.#groups.get(group) ?? [];
    this.#groups.delete(group);
    return entries.map((entry) => entry.item);
  }

  /** Items of the group in the page's order, from just after its position. */
  itemsFor(group: string, query: PageQuery): Generator<T> {
    return query.order === 'oldestFirst' ? this.oldestFirst(group, query.after) : this.newestFirst(group, query.after);
  }

  /**
   * Items of any of the groups in the page's order, from just after its position: a filter that
   * one group does not hold (forms by `isActive` alone, kept per `isActive` and `visibility`)
   * reads the groups that make it up, merged, each from its own place.
   */
  *itemsForAny(groups: readonly string[], query: PageQuery): Generator<T> {
    const newestFirst = query.order !== 'oldestFirst';
    const step = newestFirst ? -1 : 1;
    const heads = groups.map((group) => {
      const entries = this.#groups.get(group) ?? [];
      return { entries, at: newestFirst ? newestStart(entries, query.after) : oldestStart(entries, query.after) };
    });
    for (;;) {
      let next: (typeof heads)[number] | undefined;
      for (const head of heads) {
        const entry = head.entries[head.at];
        if (entry === undefined) continue;
        // compareNewestFirst(a, b) < 0: a is newer than b.
        if (next === undefined || compareNewestFirst(entry, next.entries[next.at]!) * step > 0) next = head;
      }
      if (next === undefined) return;
      yield next.entries[next.at]!.item;
      next.at += step;
    }
  }

  /** Items of the group newest first, from just after `after` (the start when null). */
  *newestFirst(group: string, after: KeysetPosition | null): Generator<T> {
    const entries = this.#groups.get(group) ?? [];
    for (let i = newestStart(entries, after); i >= 0; i -= 1) yield entries[i]!.item;
  }

  /** Items of the group oldest first, from just after `after` (the start when null). */
  *oldestFirst(group: string, after: KeysetPosition | null): Generator<T> {
    const entries = this.#groups.get(group) ?? [];
    for (let i = oldestStart(entries, after); i < entries.length; i += 1) yield entries[i]!.item;
  }
}

/** Where a newest-first walk of the oldest-first `entries` starts after `after`: the last entry older than it. */
function newestStart(entries: readonly KeysetPosition[], after: KeysetPosition | null): number {
  return (after ? firstNotBefore(entries, after) : entries.length) - 1;
}

/** Where an oldest-first walk starts after `after`: the first entry newer than it. */
function oldestStart(entries: readonly KeysetPosition[], after: KeysetPosition | null): number {
  if (!after) return 0;
  const at = firstNotBefore(entries, after);
  return entries[at]?.id === after.id && entries[at]!.createdAt.getTime() === after.createdAt.getTime() ? at + 1 : at;
}

/** The first index whose entry is not older than `position` (oldest-first array). */
function firstNotBefore(entries: readonly KeysetPosition[], position: KeysetPosition): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    // compareNewestFirst(a, b) > 0: a is older than b.
    if (compareNewestFirst(entries[middle]!, position) > 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Up to `query.limit` records from `items`, read through `read` and kept when `keep` says so: the
 * page of a list over one group. Items whose record is gone are skipped.
 */
export function collectPage<T, R>(items: Iterable<T>, read: (item: T) => R | undefined, query: PageQuery, keep: (record: R) => boolean = () => true): R[] {
  const page: R[] = [];
  if (query.limit <= 0) return page;
  for (const item of items) {
    const record = read(item);
    if (record === undefined || !keep(record)) continue;
    page.push(record);
    if (page.length >= query.limit) break;
  }
  return page;
}
