/**
 * The delete of one record by id in its tenant, with `If-Match` made atomic: when the caller
 * holds the version it read (`expected`), `updatedAt` is part of the filter, so the check and the
 * delete are ONE `findOneAndDelete` and of two racing deletes (or a delete racing an update) with
 * the same version exactly one wins.
 */
import type { Filter, ObjectId } from 'mongodb';
import type { MongoCollection } from './mongo-database.js';
import { parseObjectId } from './object-ids.js';

interface Versioned {
  _id: ObjectId;
  tenantId: string;
  updatedAt: Date;
}

/** True only for the call that deleted the record; false for a malformed or unknown id, or a stale `expected`. */
export async function deleteById<T extends Versioned>(collection: MongoCollection<T>, tenantId: string, id: string, expected?: Date): Promise<boolean> {
  const _id = parseObjectId(id);
  if (_id === null) return false;
  const filter = (expected === undefined ? { _id, tenantId } : { _id, tenantId, updatedAt: expected }) as Filter<T>;
  return (await collection.findOneAndDelete(filter)) !== null;
}
