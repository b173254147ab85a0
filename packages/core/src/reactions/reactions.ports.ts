/**
 * Storage ports of reactions. The record store and the totals live apart (records in their own
 * collection, totals on the article or comment), so each step is one atomic operation:
 * upsert-or-delete the record returning what it held, then one increment of the difference.
 */
import { portToken, type PortToken } from '../shared/port-token.js';
import type { ReactionTargetKind, ReactionTotals, ReactionType } from './reaction.js';

/** One actor's reaction to one target. `actor` is `user:<id>` or `guest:<id>` (see `actorKey`). */
export interface ReactionKey {
  readonly tenantId: string;
  readonly targetKind: ReactionTargetKind;
  readonly targetId: string;
  readonly actor: string;
}

export interface ReactionRepository {
  /**
   * Sets the actor's reaction, creating the record when absent, in one atomic step, and returns
   * the type it held before (null: there was none). There is never more than one record per key,
   * even when calls race: the key is unique (MongoDB: a unique index and `findOneAndUpdate` with
   * `upsert` and `returnDocument: 'before'`, retried once on a duplicate-key error).
   */
  setReaction(key: ReactionKey, type: ReactionType, at: Date): Promise<ReactionType | null>;
  /** Deletes the record in one atomic step (`findOneAndDelete`) and returns the type it held, or null. */
  removeReaction(key: ReactionKey): Promise<ReactionType | null>;
  findReaction(key: ReactionKey): Promise<ReactionType | null>;
  /** Deletes every reaction record on these targets (one `deleteMany`); returns how many. */
  deleteByTargets(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<number>;
  /** Counts the like and dislike records of each target; a target without records counts zero. */
  tally(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<Map<string, ReactionTotals>>;
}

export interface TargetTotals extends ReactionTotals {
  readonly id: string;
}

/** Where a kind of target keeps its stored totals (implemented by the article and comment repositories). */
export interface ReactionTotalsStore {
  /**
   * Adds `delta` to the target's totals in one atomic step (MongoDB: one `$inc` with
   * `returnDocument: 'after'`) and returns the totals after it; a zero delta only reads. Null
   * when the tenant has no such target. Totals are stored as they add up, never clamped.
   */
  incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null>;
  /** Stored totals of the tenant's targets in ascending id order, after `afterId` (maintenance). */
  listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]>;
}

export const ReactionRepositoryToken: PortToken<ReactionRepository> = portToken('ReactionRepository');
