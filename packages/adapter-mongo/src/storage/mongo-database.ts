/**
 * The part of the driver's `Db` and `Collection` the repositories may use. It is a `Pick` of the
 * driver's own types, so a real `Db` fits unchanged, and the in-process collection double
 * (testing/mingo-collection-double.ts) has to implement only what is listed here. Using a method
 * not listed is a compile error: add it here and to the double in the same change.
 */
import type { Collection, Document } from 'mongodb';

export type MongoCollection<T extends Document = Document> = Pick<
  Collection<T>,
  'insertOne' | 'insertMany' | 'findOne' | 'find' | 'findOneAndUpdate' | 'updateOne' | 'createIndex'
  // engagement: reaction removal and author deletion, clearing an author's articles, the reaction tally
  | 'findOneAndDelete' | 'updateMany' | 'aggregate'
  // webhooks: discarding an unconfirmed event, pruning a delivery log, a deleted webhook's log;
  // content management (§6.4): cascades
  | 'deleteMany'
>;

export interface MongoDatabase {
  collection<T extends Document = Document>(name: string): MongoCollection<T>;
  /** Used for `{ ping: 1 }` only. */
  command(command: Document): Promise<Document>;
}
