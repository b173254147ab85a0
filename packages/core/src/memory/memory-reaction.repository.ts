/**
 * In-memory reaction records, grouped by target. Set and remove read the previous value and
 * write the new one without an await in between: the same guarantee as MongoDB's atomic
 * upsert and `findOneAndDelete` on a unique key.
 */
import type { ReactionTargetKind, ReactionTotals, ReactionType } from '../reactions/reaction.js';
import type { ReactionKey, ReactionRepository } from '../reactions/reactions.ports.js';

interface StoredReaction {
  type: ReactionType;
  readonly createdAt: Date;
  updatedAt: Date;
}

export class MemoryReactionRepository implements ReactionRepository {
  /** target (tenant, kind, id) → actor → reaction */
  readonly #byTarget = new Map<string, Map<string, StoredReaction>>();

  async setReaction(key: ReactionKey, type: ReactionType, at: Date): Promise<ReactionType | null> {
    const targetKey = targetKeyOf(key.tenantId, key.targetKind, key.targetId);
    let actors = this.#byTarget.get(targetKey);
    if (!actors) this.#byTarget.set(targetKey, (actors = new Map()));
    const current = actors.get(key.actor);
    if (current) {
      const previous = current.type;
      current.type = type;
      current.updatedAt = at;
      return previous;
    }
    actors.set(key.actor, { type, createdAt: at, updatedAt: at });
    return null;
  }

  async removeReaction(key: ReactionKey): Promise<ReactionType | null> {
    const targetKey = targetKeyOf(key.tenantId, key.targetKind, key.targetId);
    const actors = this.#byTarget.get(targetKey);
    const current = actors?.get(key.actor);
    if (!actors || !current) return null;
    actors.delete(key.actor);
    if (actors.size === 0) this.#byTarget.delete(targetKey);
    return current.type;
  }

  async findReaction(key: ReactionKey): Promise<ReactionType | null> {
    return this.#byTarget.get(targetKeyOf(key.tenantId, key.targetKind, key.targetId))?.get(key.actor)?.type ?? null;
  }

  async tally(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<Map<string, ReactionTotals>> {
    const counts = new Map<string, ReactionTotals>();
    for (const targetId of targetIds) {
      let likes = 0;
      let dislikes = 0;
      for (const { type } of this.#byTarget.get(targetKeyOf(tenantId, targetKind, targetId))?.values() ?? []) {
        if (type === 'like') likes += 1;
        else dislikes += 1;
      }
      counts.set(targetId, { likes, dislikes });
    }
    return counts;
  }
}

const targetKeyOf = (tenantId: string, kind: ReactionTargetKind, id: string) => `${tenantId}\u0000${kind}\u0000${id}`;
