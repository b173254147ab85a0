/**
 * The real-server run of the contract suites. With MONGODB_URI set, the enclosing mocha suite gets
 * one fresh database `cms_test_<random>` (indexes ensured), emptied before each test and dropped
 * at the end. Without it, every test of the suite is skipped and a note says so: those tests
 * never pass silently. After each test, every command the repositories sent is explained by the
 * server, and a plan that scans a collection fails the suite; where the server allows it, the
 * suite runs with `notablescan` on, so such a query fails at once (issue 18 item 2).
 */
import { randomBytes } from 'node:crypto';
import { MinKey, MongoClient, type Db, type Document } from 'mongodb';
import { Collections, ensureIndexes } from '../storage/mongo-collections.js';
import { serviceWriteConcern } from '../storage/mongo-connection-settings.js';
import { createMongoRepositories, type MongoRepositories } from '../storage/mongo-storage.js';
import { CommandCounter } from './command-counter.js';
import { collectionScans, refuseTableScans } from './query-plans.js';

export const REAL_SERVER_SKIP_NOTE =
  'MONGODB_URI is not set: the contract suites on a real MongoDB are skipped (run: MONGODB_URI=mongodb://127.0.0.1:27017 npm test)';

/**
 * Registers the suite's hooks; returns a factory of repositories over the emptied test database.
 * Call it inside a `describe`.
 */
export function useRealMongoServer(uri: string | undefined = process.env.MONGODB_URI?.trim() || undefined): () => Promise<MongoRepositories> {
  let client: MongoClient | undefined;
  let db: Db | undefined;
  let counter: CommandCounter | undefined;
  let restoreTableScans: (() => Promise<void>) | null = null;
  before(async function () {
    if (!uri) {
      process.stderr.write(`\n  note: ${REAL_SERVER_SKIP_NOTE}\n`);
      this.skip();
    }
    this.timeout(30_000);
    // The service's write concern (0839), so the suites send what the service sends.
    client = new MongoClient(uri, { appName: 'cms-contract-tests', serverSelectionTimeoutMS: 10_000, monitorCommands: true, writeConcern: serviceWriteConcern(uri) });
    await client.connect();
    counter = CommandCounter.onClient(client);
    db = client.db(`cms_test_${randomBytes(6).toString('hex')}`);
    await ensureIndexes(db);
    restoreTableScans = await refuseTableScans(db);
  });
  afterEach(async function () {
    if (!db || !counter) return;
    const sent = counter.documents();
    counter.take();
    const scans = await collectionScans(db, sent);
    if (scans.length > 0) throw new Error(`"${this.currentTest?.title}" sent commands whose plan scans a collection: ${scans.join(', ')}`);
  });
  after(async function () {
    this.timeout(30_000);
    counter?.detach();
    await restoreTableScans?.();
    await db?.dropDatabase();
    await client?.close();
  });
  return async () => {
    if (!db) throw new Error('real MongoDB used outside its suite');
    const test = db;
    // Every document, through the `_id` index (an empty filter would be a table scan, which
    // `notablescan` refuses); only the repositories' own commands are explained.
    await Promise.all(Object.values(Collections).map((name) => test.collection(name).deleteMany({ _id: { $gte: new MinKey() } } as Document)));
    counter?.take();
    return createMongoRepositories(test);
  };
}

/** A fresh database on a real server, its commands counted (issue 18): dropped and closed by `close`. */
export interface CountedRealMongo {
  readonly db: Db;
  readonly client: MongoClient;
  readonly counter: CommandCounter;
  close(): Promise<void>;
}

/** Connects with command monitoring on, to a fresh database `<prefix>_<random>`. */
export async function openCountedRealMongo(uri: string, prefix: string): Promise<CountedRealMongo> {
  const client = new MongoClient(uri, { appName: prefix, monitorCommands: true, serverSelectionTimeoutMS: 10_000, writeConcern: serviceWriteConcern(uri) });
  await client.connect();
  const db = client.db(`${prefix}_${randomBytes(6).toString('hex')}`);
  const counter = CommandCounter.onClient(client);
  return {
    db,
    client,
    counter,
    async close() {
      counter.detach();
      await db.dropDatabase();
      await client.close();
    },
  };
}
