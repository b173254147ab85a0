/**
 * The totals half of the in-memory article and comment repositories: records keyed by
 * (tenant, id) carrying `likes` and `dislikes`, in a `SnapshotTable`. An increment reads the
 * record and stores its successor without an await in between, so it is as atomic as MongoDB's
 * `$inc`.
 */
import type { ReactionTotals } from '../reactions/reaction.js';
import type { ReactionTotalsStore, TargetTotals } from '../reactions/reactions.ports.js';
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

  async incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    // Only two numbers change: the successor shares every member and is frozen as built.
    const next = this.records.updateFrozen(tenantKey(tenantId, id), (record) =>
      Object.freeze({ ...record, likes: record.likes + delta.likes, dislikes: record.dislikes + delta.dislikes }),
    );
    return next ? { likes: next.likes, dislikes: next.dislikes } : null;
  }

  async listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    return [...this.records.values()]
      .filter((record) => record.tenantId === tenantId && (afterId === null || record.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map(({ id, likes, dislikes }) => ({ id, likes, dislikes }));
  }
}
