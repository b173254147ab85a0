/**
 * Reaction records on MongoDB: one document per (tenant, target kind, target, actor), unique by
 * index `tenant_target_actor_unique`. Setting is one `findOneAndUpdate` upsert returning the
 * document as it was (so the caller learns the previous type from the same atomic step); a lost
 * race on the unique index is retried once and then updates the winner's record. Removing is one
 * `findOneAndDelete`. The tally counts per target and type in one aggregation.
 */
import type { ReactionKey, ReactionRepository, ReactionTargetKind, ReactionTotals, ReactionType } from '@cms/core';
import type { ObjectId } from 'mongodb';
import { retryUpsertOnDuplicateKey } from '../storage/duplicate-key.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, parseObjectIds, toObjectId } from '../storage/object-ids.js';

interface ReactionDocument {
  _id: ObjectId;
  tenantId: string;
  targetKind: ReactionTargetKind;
  targetId: ObjectId;
  /** `user:<id>` or `guest:<id>`. */
  actor: string;
  type: ReactionType;
  createdAt: Date;
  updatedAt: Date;
}

interface TallyRow {
  _id: { targetId: ObjectId; type: ReactionType };
  count: number;
}

const TYPE_ONLY = { type: 1 } as const;

export class MongoReactionRepository implements ReactionRepository {
  readonly #reactions: MongoCollection<ReactionDocument>;

  constructor(db: MongoDatabase) {
    this.#reactions = db.collection<ReactionDocument>(Collections.reactions);
  }

  async setReaction(key: ReactionKey, type: ReactionType, at: Date): Promise<ReactionType | null> {
    // The target id was validated by the use case: a malformed one here is a bug, so it throws.
    const filter = { tenantId: key.tenantId, targetKind: key.targetKind, targetId: toObjectId(key.targetId), actor: key.actor };
    const before = await retryUpsertOnDuplicateKey(
      () =>
        this.#reactions.findOneAndUpdate(
          filter,
          { $set: { type, updatedAt: at }, $setOnInsert: { createdAt: at } },
          { upsert: true, returnDocument: 'before', projection: TYPE_ONLY },
        ),
    );
    return before ? before.type : null;
  }

  async removeReaction(key: ReactionKey): Promise<ReactionType | null> {
    const filter = keyFilter(key);
    if (!filter) return null;
    const removed = await this.#reactions.findOneAndDelete(filter);
    return removed ? removed.type : null;
  }

  /** One `deleteMany` through the prefix of `tenant_target_actor_unique`. */
  async deleteByTargets(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<number> {
    const ids = parseObjectIds(targetIds);
    if (ids.length === 0) return 0;
    return (await this.#reactions.deleteMany({ tenantId, targetKind, targetId: { $in: ids } })).deletedCount;
  }

  async findReaction(key: ReactionKey): Promise<ReactionType | null> {
    const filter = keyFilter(key);
    if (!filter) return null;
    const found = await this.#reactions.findOne(filter, { projection: TYPE_ONLY });
    return found ? found.type : null;
  }

  async tally(tenantId: string, targetKind: ReactionTargetKind, targetIds: readonly string[]): Promise<Map<string, ReactionTotals>> {
    const counts = new Map<string, { likes: number; dislikes: number }>();
    /** Canonical id → the spellings asked for (a malformed id is asked for but matches nothing). */
    const askedAs = new Map<string, Set<string>>();
    for (const targetId of targetIds) {
      counts.set(targetId, { likes: 0, dislikes: 0 });
      const _id = parseObjectId(targetId);
      if (!_id) continue;
      const canonical = fromObjectId(_id);
      askedAs.set(canonical, (askedAs.get(canonical) ?? new Set()).add(targetId));
    }
    if (askedAs.size === 0) return counts;
    const rows = await this.#reactions
      .aggregate<TallyRow>([
        { $match: { tenantId, targetKind, targetId: { $in: [...askedAs.keys()].map(toObjectId) } } },
        { $group: { _id: { targetId: '$targetId', type: '$type' }, count: { $sum: 1 } } },
      ])
      .toArray();
    for (const row of rows) {
      for (const asked of askedAs.get(fromObjectId(row._id.targetId)) ?? []) {
        const count = counts.get(asked)!;
        if (row._id.type === 'like') count.likes += row.count;
        else if (row._id.type === 'dislike') count.dislikes += row.count;
      }
    }
    return counts;
  }
}

/** The unique key as a filter; null when the target id is malformed (it matches nothing). */
function keyFilter(key: ReactionKey) {
  const targetId = parseObjectId(key.targetId);
  return targetId ? { tenantId: key.tenantId, targetKind: key.targetKind, targetId, actor: key.actor } : null;
}
