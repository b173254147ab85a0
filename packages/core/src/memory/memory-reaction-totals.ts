/**
 * The totals half of the in-memory article and comment repositories: records keyed by
 * (tenant, id) carrying `likes` and `dislikes`, in a `SnapshotTable`. An increment reads the
 * record and stores its successor without an await in between, so it is as atomic as MongoDB's
 * `$inc`.
 */
import type { ReactionTotals } from '../reactions/reaction.js';
import type { ReactionTotalsStore, TargetTotals } from '../reactions/reactions.ports.js';
import { setBounded } from '../shared/bounded-map.js';
import { collectPage } from './keyset-index.js';
import { SnapshotTable } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

/** What `MemoryReactionTotals` keeps: a record of a tenant with its two totals. */
export interface CountedRecord {
  readonly id: string;
  readonly tenantId: string;
  readonly likes: number;
  readonly dislikes: number;
}

export class MemoryReactionTotals<T extends CountedRecord> implements ReactionTotalsStore {
  protected readonly records = new SnapshotTable<T>();
  /** Tenant → its ids in order, with the table's `added` when they were taken (`listTotals`). */
  readonly #passes = new Map<string, { readonly added: number; readonly ids: readonly string[] }>();

  async incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    // Only two numbers change: the successor shares every member and is frozen as built.
    const next = this.records.updateFrozen(tenantKey(tenantId, id), (record) =>
      Object.freeze({ ...record, likes: record.likes + delta.likes, dislikes: record.dislikes + delta.dislikes }),
    );
    return next ? { likes: next.likes, dislikes: next.dislikes } : null;
  }

  /**
   * Pages in id order, as MongoDB's `_id` index gives them. The tenant's ids are sorted once for
   * a pass over its pages (the recount's), not once a page (decision 0842). The sorted ids serve
   * the next page while the table has been given no new key since (`SnapshotTable.added`); a
   * record deleted since is skipped. The pass ends, and its ids go, with a page shorter than
   * `limit`.
   */
  async listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    const ids = this.#idsInOrder(tenantId);
    const from = afterId === null ? 0 : firstAfter(ids, afterId);
    const page = collectPage(idsFrom(ids, from), (id) => this.records.get(tenantKey(tenantId, id)), { after: null, limit });
    if (page.length < limit) this.#passes.delete(tenantId);
    return page.map(({ id, likes, dislikes }) => ({ id, likes, dislikes }));
  }

  #idsInOrder(tenantId: string): readonly string[] {
    const pass = this.#passes.get(tenantId);
    if (pass?.added === this.records.added) return pass.ids;
    const ids: string[] = [];
    for (const record of this.records.values()) if (record.tenantId === tenantId) ids.push(record.id);
    ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    setBounded(this.#passes, tenantId, { added: this.records.added, ids }, PASSES_KEPT);
    return ids;
  }
}

/** Tenants whose pass may be under way at once: a recount goes through them one at a time. */
const PASSES_KEPT = 4;

/** `ids` from index `from` on, read one at a time as a page takes them. */
function* idsFrom(ids: readonly string[], from: number): Generator<string> {
  for (let at = from; at < ids.length; at += 1) yield ids[at]!;
}

/** The index of the first id in `ids` (sorted) greater than `afterId`. */
function firstAfter(ids: readonly string[], afterId: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! <= afterId) low = middle + 1;
    else high = middle;
  }
  return low;
}
