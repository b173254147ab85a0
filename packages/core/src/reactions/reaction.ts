/**
 * Reactions: each actor (a user or a guest) holds at most one like or dislike per target (an
 * article or a comment). The target stores its totals, moved by the difference each change made.
 */
import { requireKnownKeys, requireOneOf } from '../shared/shape-rules.js';

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

/** A caller's choice on a reaction route: set or switch to `type`. */
export interface ReactionChoice {
  readonly type: ReactionType;
}

/** The choice that sets `type`, or `null` (remove) for `null`. */
export function reactionChoice(type: ReactionType | null): ReactionChoice | null {
  return type === null ? null : { type };
}

const CHOICE_KEYS: ReadonlySet<string> = new Set(['type']);

/** The type a choice sets, or `null` for "remove"; `VALIDATION_FAILED` at `reaction…` for anything else. */
export function reactionTypeOf(choice: unknown): ReactionType | null {
  if (choice === null) return null;
  requireKnownKeys(choice, 'reaction', CHOICE_KEYS);
  requireOneOf(choice.type, 'reaction.type', REACTION_TYPES);
  return choice.type;
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
