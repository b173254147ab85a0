/**
 * Reactions: each actor (a user or a guest) holds at most one like or dislike per target (an
 * article or a comment). The target stores its totals, moved by the difference each change made.
 */
export const REACTION_TYPES = ['like', 'dislike'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const REACTION_TARGET_KINDS = ['article', 'comment'] as const;
export type ReactionTargetKind = (typeof REACTION_TARGET_KINDS)[number];

export interface ReactionTotals {
  readonly likes: number;
  readonly dislikes: number;
}

export const NO_REACTIONS: ReactionTotals = Object.freeze({ likes: 0, dislikes: 0 });

export function isReactionType(value: unknown): value is ReactionType {
  return value === 'like' || value === 'dislike';
}

/**
 * How an actor's move from `before` to `after` changes the totals: `null → like` is +1 like,
 * `like → dislike` is −1 like +1 dislike, `like → like` is nothing. Applied with one atomic
 * increment, the sum of every change's delta is the number of records, whatever the order.
 */
export function reactionDelta(before: ReactionType | null, after: ReactionType | null): ReactionTotals {
  const count = (type: ReactionType, state: ReactionType | null) => (state === type ? 1 : 0);
  return {
    likes: count('like', after) - count('like', before),
    dislikes: count('dislike', after) - count('dislike', before),
  };
}

export function isZeroDelta(delta: ReactionTotals): boolean {
  return delta.likes === 0 && delta.dislikes === 0;
}

export function addTotals(a: ReactionTotals, b: ReactionTotals): ReactionTotals {
  return { likes: a.likes + b.likes, dislikes: a.dislikes + b.dislikes };
}

export function subtractTotals(a: ReactionTotals, b: ReactionTotals): ReactionTotals {
  return { likes: a.likes - b.likes, dislikes: a.dislikes - b.dislikes };
}

/**
 * Totals as callers see them. The record change and the total increment are two atomic steps,
 * so while one actor's own requests race (a like and its removal in flight together) the stored
 * value can dip below zero for an instant before the other increment lands. No reader ever
 * sees that: every total shown is at least zero. Once requests finish the stored value is exact.
 */
export function visibleTotals(totals: ReactionTotals): ReactionTotals {
  return { likes: Math.max(0, totals.likes), dislikes: Math.max(0, totals.dislikes) };
}
