/**
 * One keyset page on MongoDB: the filter, "strictly after the cursor's `(createdAt, _id)`" and a
 * sort on `{createdAt, _id}` in the page's direction, limited to the page. Every list has an index
 * `{tenantId, <its equality filters>, createdAt: -1, _id: -1}` (mongo-collections.ts), so a page
 * is one index range whatever its position: no skip, no in-memory sort.
 */
import type { PageQuery } from '@cms/core';
import type { Document, Filter } from 'mongodb';
import type { MongoCollection } from './mongo-database.js';
import { toObjectId } from './object-ids.js';

export async function findPage<T extends Document>(collection: MongoCollection<T>, filter: Filter<T>, page: PageQuery): Promise<T[]> {
  const direction = page.order === 'oldestFirst' ? 1 : -1;
  const beyond = direction === 1 ? '$gt' : '$lt';
  const after = page.after;
  const query = after
    ? {
        $and: [
          filter,
          { $or: [{ createdAt: { [beyond]: after.createdAt } }, { createdAt: after.createdAt, _id: { [beyond]: toObjectId(after.id) } }] },
        ],
      }
    : filter;
  const documents = await collection.find(query as Filter<T>, { sort: { createdAt: direction, _id: direction }, limit: page.limit }).toArray();
  return documents as T[];
}
