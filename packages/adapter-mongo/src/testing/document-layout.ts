/**
 * Set-up shared by the document-layout specs: before each test, a fresh collection double with
 * the service's indexes and every repository on it, and a way to read what they stored.
 */
import type { Document } from 'mongodb';
import { ensureIndexes } from '../storage/mongo-collections.js';
import { createMongoRepositories, type MongoRepositories } from '../storage/mongo-storage.js';
import { MingoDatabaseDouble } from './mingo-database-double.js';

export interface DocumentLayoutFixture {
  readonly db: () => MingoDatabaseDouble;
  readonly repos: () => MongoRepositories;
  /** The documents a collection holds now. */
  readonly stored: (collection: string) => Document[];
}

export function useDocumentLayout(): DocumentLayoutFixture {
  let db: MingoDatabaseDouble | undefined;
  let repos: MongoRepositories | undefined;
  beforeEach(async () => {
    db = new MingoDatabaseDouble();
    await ensureIndexes(db);
    repos = createMongoRepositories(db);
  });
  const current = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('document layout used outside a test');
    return value;
  };
  return {
    db: () => current(db),
    repos: () => current(repos),
    stored: (collection) => current(db).collectionDouble(collection).documents(),
  };
}
