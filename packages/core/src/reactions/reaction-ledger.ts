/**
 * The one implementation of "change an actor's reaction" for every kind of target: an atomic
 * set or remove of the record that returns what it held, then one atomic increment of the
 * difference. Any interleaving of changes, by one actor or many, leaves totals equal to the
 * records: each record transition is counted exactly once, and increments commute. A change
 * whose target went meanwhile leaves no record behind (decision 0763).
 */
import type { Clock } from '../shared/clock.js';
import { isZeroDelta, reactionDelta, visibleTotals, type ReactionTargetKind, type ReactionTotals, type ReactionType } from './reaction.js';
import type { ReactionRepository, ReactionTotalsStore } from './reactions.ports.js';

export class ReactionLedger {
  constructor(
    private readonly reactions: ReactionRepository,
    private readonly targets: ReactionTotalsStore,
    private readonly targetKind: ReactionTargetKind,
    private readonly clock: Clock,
  ) {}

  /**
   * Sets (`type`) or removes (`null`) the actor's reaction and returns the target's totals after
   * this change, or null when the target no longer exists. `readTotals`, the target's totals as
   * the caller read them during this request, answer a change that changes nothing (a repeated
   * reaction, a removal of none) without a second read (decision 0750).
   */
  async change(tenantId: string, targetId: string, actor: string, type: ReactionType | null, readTotals?: ReactionTotals): Promise<ReactionTotals | null> {
    return (await this.changeReporting(tenantId, targetId, actor, type, readTotals)).totals;
  }

  /** As `change`, and whether the totals moved (the record changed). */
  async changeReporting(
    tenantId: string,
    targetId: string,
    actor: string,
    type: ReactionType | null,
    readTotals?: ReactionTotals,
  ): Promise<{ totals: ReactionTotals | null; changed: boolean }> {
    const key = { tenantId, targetKind: this.targetKind, targetId, actor };
    const previous = type === null ? await this.reactions.removeReaction(key) : await this.reactions.setReaction(key, type, this.clock.now());
    const delta = reactionDelta(previous, type);
    if (readTotals && isZeroDelta(delta)) return { totals: visibleTotals(readTotals), changed: false };
    const totals = await this.targets.incrementTotals(tenantId, targetId, delta);
    if (totals === null) {
      // The target went after the caller's check: its delete may have cleared its reactions
      // before this record landed, so the record this change wrote goes too (decision 0763).
      if (type !== null) await this.reactions.removeReaction(key);
      return { totals: null, changed: false };
    }
    return { totals: visibleTotals(totals), changed: !isZeroDelta(delta) };
  }
}
