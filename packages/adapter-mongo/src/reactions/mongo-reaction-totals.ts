/**
 * The totals half of the Mongo article and comment repositories: `likes` and `dislikes` stored on
 * the target document. An increment is one `$inc` returning the totals after it, so concurrent
 * reactions never lose a count; reading totals is one lookup by `_id`. Only the two counters
 * travel, never the rest of the (possibly large) article or comment.
 */
import { type ReactionTotals, type ReactionTotalsStore, type TargetTotals } from '@cms/core';
import { isZeroDelta } from '@cms/core/internal';
import type { ObjectId } from 'mongodb';
import type { CollectionName } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

/** The fields of an article or comment document this module reads and writes. */
interface TotalsDocument {
  _id: ObjectId;
  tenantId: string;
  likes: number;
  dislikes: number;
}

const TOTALS_ONLY = { likes: 1, dislikes: 1 } as const;

export class MongoReactionTotals implements ReactionTotalsStore {
  readonly #targets: MongoCollection<TotalsDocument>;

  constructor(db: MongoDatabase, collection: CollectionName) {
    this.#targets = db.collection<TotalsDocument>(collection);
  }

  async incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = isZeroDelta(delta)
      ? await this.#targets.findOne({ _id, tenantId }, { projection: TOTALS_ONLY })
      : await this.#targets.findOneAndUpdate(
          { _id, tenantId },
          { $inc: { likes: delta.likes, dislikes: delta.dislikes } },
          { returnDocument: 'after', projection: TOTALS_ONLY },
        );
    return document ? { likes: document.likes, dislikes: document.dislikes } : null;
  }

  /** Pages in `_id` order, which is the ids' order (ObjectId bytes sort like their hex); index `tenant_id`. */
  async listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    // A limit of 0 means "no limit" to MongoDB; to the port it means an empty page.
    if (limit <= 0) return [];
    const filter = afterId === null ? { tenantId } : { tenantId, _id: { $gt: toObjectId(afterId) } };
    const documents = await this.#targets.find(filter, { sort: { _id: 1 }, limit, projection: TOTALS_ONLY }).toArray();
    return documents.map((document) => ({ id: fromObjectId(document._id), likes: document.likes, dislikes: document.dislikes }));
  }
}
