/**
 * The totals half of the in-memory article and comment repositories: records keyed by
 * (tenant, id) carrying `likes` and `dislikes`, frozen (see `frozenCopy`). An increment reads
 * the record and stores its successor without an await in between, so it is as atomic as
 * MongoDB's `$inc`.
 */
import type { ReactionTotals } from '../reactions/reaction.js';
import type { ReactionTotalsStore, TargetTotals } from '../reactions/reactions.ports.js';
import { tenantKey } from './tenant-key.js';

interface Countable {
  readonly id: string;
  readonly tenantId: string;
  readonly likes: number;
  readonly dislikes: number;
}

export class MemoryReactionTotals<T extends Countable> implements ReactionTotalsStore {
  constructor(private readonly records: Map<string, T>) {}

  async incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    const key = tenantKey(tenantId, id);
    const record = this.records.get(key);
    if (!record) return null;
    const totals = { likes: record.likes + delta.likes, dislikes: record.dislikes + delta.dislikes };
    this.records.set(key, Object.freeze({ ...record, ...totals }));
    return totals;
  }

  async listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    return [...this.records.values()]
      .filter((record) => record.tenantId === tenantId && (afterId === null || record.id > afterId))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map(({ id, likes, dislikes }) => ({ id, likes, dislikes }));
  }
}
