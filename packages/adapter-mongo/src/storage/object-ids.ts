/**
 * Domain ids (24-hex strings) ↔ stored ObjectIds. Nothing outside adapter-mongo ever sees an
 * ObjectId: repositories convert on the way in and out.
 */
import { isWellFormedId } from '@cms/core/internal';
import { ObjectId } from 'mongodb';

/** For ids the domain generated: a malformed one is a bug, so it throws. */
export function toObjectId(id: string): ObjectId {
  if (!isWellFormedId(id)) throw new Error(`not a record id: "${id}"`);
  return ObjectId.createFromHexString(id.toLowerCase());
}

/** For ids to look up: a malformed one cannot match any record, so it is null. */
export function parseObjectId(id: string): ObjectId | null {
  return isWellFormedId(id) ? ObjectId.createFromHexString(id.toLowerCase()) : null;
}

/** For ids to look up together: the malformed ones left out, as none could match a record. */
export function parseObjectIds(ids: readonly string[]): ObjectId[] {
  return ids.map(parseObjectId).filter((id): id is ObjectId => id !== null);
}

export function fromObjectId(id: ObjectId): string {
  return id.toHexString();
}
