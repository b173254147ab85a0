/**
 * In-memory reaction records, grouped by target. Set and remove read the previous value and
 * write the new one without an await in between: the same guarantee as MongoDB's atomic
 * upsert and `findOneAndDelete` on a unique key.
 *
 * A record is just its type, held as one of two shared string constants: a reaction costs the
 * heap its actor key and a Map entry, no object of its own. At 10⁶ reactions that keeps the
 * heap, and the time V8 spends marking it, about a third of what a { type, createdAt,
 * updatedAt } object per reaction costs (decision 0613). The port reads no timestamps; MongoDB
 * keeps them in its documents.
 */
import type { ReactionTargetKind, ReactionTotals, ReactionType } from '../reactions/reaction.js';
import type { ReactionKey, ReactionRepository } from '../reactions/reactions.ports.js';

export class MemoryReactionRepository implements ReactionRepository {
  /** target (tenant, kind, id) → actor → reaction type */
  readonly #byTarget = new Map<string, Map<string, ReactionType>>();

  async setReaction(key: ReactionKey, type: ReactionType): Promise<ReactionType | null> {
    const targetKey = targetKeyOf(key.tenantId, key.targetKind, key.targetId);
    let actors = this.#byTarget.get(targetKey);
    if (!actors) this.#byTarget.set(targetKey, (actors = new Map()));
    const previous = actors.get(key.actor) ?? null;
    actors.set(key.actor, shared(type));
    return previous;
  }

  async removeReaction(key: ReactionKey): Promise<ReactionType | null> {
    const targetKey = targetKeyOf(key.tenantId, key.targetKind, key.targetId);
    const actors = this.#byTarget.get(targetKey);
    const previous = actors?.get(key.actor);
    if (!actors || previous === undefined) return null;
    actors.delete(key.actor);
    if (actors.size === 0) this.#byTarget.delete(targetKey);
    return previous;
  }

  async deleteByTargets(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const id of new Set(targetIds)) {
      const key = targetKeyOf(tenantId, targetKind, id);
      deleted += this.#byTarget.get(key)?.size ?? 0;
      this.#byTarget.delete(key);
    }
    return deleted;
  }

  async findReaction(key: ReactionKey): Promise<ReactionType | null> {
    return this.#byTarget.get(targetKeyOf(key.tenantId, key.targetKind, key.targetId))?.get(key.actor) ?? null;
  }

  async tally(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<Map<string, ReactionTotals>> {
    const counts = new Map<string, ReactionTotals>();
    for (const targetId of targetIds) {
      let likes = 0;
      let dislikes = 0;
      for (const type of this.#byTarget.get(targetKeyOf(tenantId, targetKind, targetId))?.values() ?? []) {
        if (type === 'like') likes += 1;
        else dislikes += 1;
      }
      counts.set(targetId, { likes, dislikes });
    }
    return counts;
  }
}

const targetKeyOf = (tenantId: string, kind: ReactionTargetKind, id: string) => `${tenantId}\u0000${kind}\u0000${id}`;

/**
 * The literal for `type`, so every record points at one of two constants, never at a string
 * of the request's (which may be a slice that keeps the whole request body alive).
 */
const shared = (type: ReactionType): ReactionType => (type === 'like' ? 'like' : 'dislike');
