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

/**
 * The most entries a block holds. A group is a list of blocks, each ordered, oldest first, so
 * that a remove or an insert away from the end moves at most a block's entries and the list of
 * blocks, not the whole group: in one array of 100,000 entries a remove and an insert in the middle
 * took ~270 µs, in blocks ~3 µs (decision 0761).
 */
export const KEYSET_BLOCK = 512;

/** A place in a group: block `block`, entry `at` of it. */
interface Place {
  block: number;
  at: number;
}

/** One group's entries, oldest first, in blocks of at most `KEYSET_BLOCK`. */
class Group<T> {
  readonly blocks: Entry<T>[][] = [];
  size = 0;

  add(entry: Entry<T>): void {
    this.size += 1;
    const blocks = this.blocks;
    const lastBlock = blocks[blocks.length - 1];
    // Records are created with the clock's time: almost every insert appends.
    if (lastBlock === undefined || compareNewestFirst(entry, lastBlock[lastBlock.length - 1]!) < 0) {
      if (lastBlock === undefined || lastBlock.length >= KEYSET_BLOCK) blocks.push([entry]);
      else lastBlock.push(entry);
      return;
    }
    const place = this.firstNotBefore(entry);
    const block = blocks[place.block]!;
    block.splice(place.at, 0, entry);
    if (block.length > KEYSET_BLOCK) blocks.splice(place.block + 1, 0, block.splice(block.length >>> 1));
  }

  /** Removes the entry at `position`; whether there was one. */
  remove(position: KeysetPosition): boolean {
    const place = this.firstNotBefore(position);
    const block = this.blocks[place.block];
    if (block?.[place.at]?.id !== position.id) return false;
    block.splice(place.at, 1);
    if (block.length === 0) this.blocks.splice(place.block, 1);
    this.size -= 1;
    return true;
  }

  /** The place of the first entry not older than `position`; past the last block when there is none. */
  firstNotBefore(position: KeysetPosition): Place {
    const blocks = this.blocks;
    let low = 0;
    let high = blocks.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const block = blocks[middle]!;
      // compareNewestFirst(a, b) > 0: a is older than b.
      if (compareNewestFirst(block[block.length - 1]!, position) > 0) low = middle + 1;
      else high = middle;
    }
    return { block: low, at: low < blocks.length ? firstNotBefore(blocks[low]!, position) : 0 };
  }

  entryAt(place: Place): Entry<T> | undefined {
    return this.blocks[place.block]?.[place.at];
  }

  /** Moves `place` one entry older (`step` -1) or newer (+1); past either end it reads no entry. */
  move(place: Place, step: 1 | -1): void {
    place.at += step;
    if (step > 0 ? place.at < (this.blocks[place.block]?.length ?? 0) : place.at >= 0) return;
    place.block += step;
    place.at = step > 0 ? 0 : (this.blocks[place.block]?.length ?? 0) - 1;
  }

  /** Where a walk in `step`'s direction starts just after `after` (at its end when null). */
  start(after: KeysetPosition | null, step: 1 | -1): Place {
    if (step < 0) {
      // Newest first: the entry just before the first one not older than `after`.
      const place = after ? this.firstNotBefore(after) : { block: this.blocks.length, at: 0 };
      this.move(place, -1);
      return place;
    }
    if (!after) return { block: 0, at: 0 };
    const place = this.firstNotBefore(after);
    const entry = this.entryAt(place);
    if (entry?.id === after.id && entry.createdAt.getTime() === after.createdAt.getTime()) this.move(place, 1);
    return place;
  }

  *items(after: KeysetPosition | null, step: 1 | -1): Generator<T> {
    const { block: first, at } = this.start(after, step);
    const blocks = this.blocks;
    if (step < 0) {
      for (let b = first, i = at; b >= 0; b -= 1, i = (blocks[b]?.length ?? 0) - 1) {
        for (const block = blocks[b]!; i >= 0; i -= 1) yield block[i]!.item;
      }
    } else {
      for (let b = first, i = at; b < blocks.length; b += 1, i = 0) {
        for (const block = blocks[b]!; i < block.length; i += 1) yield block[i]!.item;
      }
    }
  }
}

export class KeysetIndex<T = string> {
  /** Group → its entries. */
  readonly #groups = new Map<string, Group<T>>();

  add(group: string, position: KeysetPosition, item: T): void {
    let entries = this.#groups.get(group);
    if (!entries) this.#groups.set(group, (entries = new Group()));
    entries.add({ createdAt: new Date(position.createdAt.getTime()), id: position.id, item });
  }

  remove(group: string, position: KeysetPosition): void {
    const entries = this.#groups.get(group);
    if (entries?.remove(position) && entries.size === 0) this.#groups.delete(group);
  }

  /** How many entries the group holds. */
  count(group: string): number {
    return this.#groups.get(group)?.size ?? 0;
  }

  /** Removes the group and answers its items, oldest first. */
  take(group: string): T[] {
    const entries = this.#groups.get(group);
    this.#groups.delete(group);
    return entries ? entries.blocks.flatMap((block) => block.map((entry) => entry.item)) : [];
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
    const step = query.order === 'oldestFirst' ? 1 : -1;
    const heads = groups.flatMap((name) => {
      const group = this.#groups.get(name);
      return group ? [{ group, place: group.start(query.after, step) }] : [];
    });
    for (;;) {
      let next: (typeof heads)[number] | undefined;
      let nextEntry: Entry<T> | undefined;
      for (const head of heads) {
        const entry = head.group.entryAt(head.place);
        // compareNewestFirst(a, b) < 0: a is newer than b.
        if (entry !== undefined && (nextEntry === undefined || compareNewestFirst(entry, nextEntry) * step > 0)) {
          next = head;
          nextEntry = entry;
        }
      }
      if (next === undefined || nextEntry === undefined) return;
      yield nextEntry.item;
      next.group.move(next.place, step);
    }
  }

  /** Items of the group newest first, from just after `after` (the start when null). */
  newestFirst(group: string, after: KeysetPosition | null): Generator<T> {
    return (this.#groups.get(group) ?? EMPTY).items(after, -1) as Generator<T>;
  }

  /** Items of the group oldest first, from just after `after` (the start when null). */
  oldestFirst(group: string, after: KeysetPosition | null): Generator<T> {
    return (this.#groups.get(group) ?? EMPTY).items(after, 1) as Generator<T>;
  }
}

const EMPTY = new Group<never>();

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
