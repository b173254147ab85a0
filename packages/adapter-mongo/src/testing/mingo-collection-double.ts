/**
 * TEST DOUBLE — an in-process stand-in for the driver's `Db` and `Collection`, for tests only.
 * It is not a database and does not replace running the contract suites on a real MongoDB.
 *
 * Built on `mingo` (MongoDB's query and update language in JS). It implements exactly the
 * methods of `MongoDatabase` / `MongoCollection` (storage/mongo-database.ts) with the options the
 * repositories pass, and throws on any other option, so an adapter change it cannot honour fails
 * loudly instead of passing. What it keeps faithful:
 * - documents go in and out through a BSON round trip (copies; `undefined` stored as null;
 *   ObjectId and Date kept), and `_id` is added when missing, as the driver does;
 * - every declared unique index (and `_id`) is enforced on insert, update and upsert; a violation
 *   throws an error shaped like the driver's (`name` MongoServerError, `code` 11000, `keyPattern`,
 *   `keyValue`, an `E11000 …` message);
 * - upserts seed the new document from the filter's equality fields, apply `$setOnInsert` only
 *   on insert, and `returnDocument` defaults to `'before'`;
 * - update documents must use operators only; conflicting paths, changing `_id` and `$addToSet`
 *   on a field that is not an array are refused (mingo alone would skip the latter silently);
 * - a field named like a member of `Object.prototype` (`toString`) that a document lacks is
 *   absent, as on a server, also to an update (mingo's would take the inherited member for it);
 * - `find` takes `projection` (mingo's projection, applied after sort and limit);
 * - each operation is atomic and starts on a later turn of the event loop, so concurrent calls
 *   interleave between operations as they would against a server (`updateMany` is one operation
 *   here; on a server other writes may land between its documents);
 * - no stored document passes 16 MiB of BSON: `insertOne` refuses a larger one (code 2), an
 *   update (17419) or an upsert (17420) whose result would be larger changes nothing, as on a
 *   server, and `insertMany` refuses one of 16 MiB or more before inserting any, as the driver does;
 * - projections return `_id` first; `aggregate` accepts the stages listed in mingo-read-rules.ts
 *   and is evaluated when its cursor is read.
 * - through `MingoDatabaseDouble.collection()` (mingo-database-double.ts), every command is
 *   reported as the driver's `commandStarted` would report it, and every filter and sort must be
 *   served by a declared index (double-command-monitor.ts, index-coverage.ts).
 * What it does not model: transactions, read/write concerns, replication, query plans beyond
 * that index check, collations, array (multikey) unique indexes, sessions, change streams, and
 * TTL expiry (a TTL index's `expireAfterSeconds` is recorded and compared, but nothing is ever
 * deleted).
 */
import { BSON, ObjectId, type Document } from 'mongodb';
import { find, update as applyModifier } from 'mingo';
import { DriverArgumentDoubleError, DuplicateKeyDoubleError, ServerDoubleError } from './mingo-double-errors.js';
import { assertApplicable, seedFromFilter, splitUpdate, valueAt, withOwnPaths } from './mingo-update-rules.js';
import { project, runPipeline } from './mingo-read-rules.js';
import { hintNames } from './index-coverage.js';

export { DriverArgumentDoubleError, DuplicateKeyDoubleError, ServerDoubleError };

type Sort = Record<string, 1 | -1>;

export interface DoubleIndex {
  readonly name: string;
  readonly keys: Readonly<Record<string, unknown>>;
  readonly unique: boolean;
  /** Set on a TTL index only. */
  readonly expireAfterSeconds?: number;
  /** Set on a sparse index only: it holds the documents that have its fields. */
  readonly sparse?: true;
}

const copy = <T extends Document>(document: T): T =>
  BSON.deserialize(BSON.serialize(document, { ignoreUndefined: false })) as T;

/** The largest document a server stores (`maxBsonObjectSize`, BSONObjMaxUserSize). */
const MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

const bsonSize = (document: Document): number => BSON.calculateObjectSize(document, { ignoreUndefined: false });

/** Refuses, as the server does, a document to store that is larger than 16 MiB; measured before any copy. */
function assertStorable(document: Document, refusal: 'insert' | 'update' | 'upsert'): void {
  const size = bsonSize(document);
  if (size <= MAX_DOCUMENT_BYTES) return;
  if (refusal === 'insert') throw new ServerDoubleError(2, `object to insert too large. size in bytes: ${size}, max size: ${MAX_DOCUMENT_BYTES}`);
  if (refusal === 'update') throw new ServerDoubleError(17419, `Resulting document after update is larger than ${MAX_DOCUMENT_BYTES}`);
  throw new ServerDoubleError(17420, `Document to upsert is larger than ${MAX_DOCUMENT_BYTES}`);
}

/** Lets other pending operations run first, as a round trip to a server would. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function allowOptions(method: string, options: Document | undefined, allowed: readonly string[]): void {
  for (const key of Object.keys(options ?? {})) {
    if (!allowed.includes(key)) throw new Error(`MingoCollectionDouble.${method} does not support option "${key}"`);
  }
}

export class MingoCollectionDouble {
  readonly #documents: Document[] = [];
  readonly #indexes: DoubleIndex[] = [{ name: '_id_', keys: { _id: 1 }, unique: true }];

  constructor(readonly namespace: string) {}

  async createIndex(keys: Record<string, unknown>, options: { name?: string; unique?: boolean; expireAfterSeconds?: number; sparse?: boolean } = {}): Promise<string> {
    await turn();
    allowOptions('createIndex', options, ['name', 'unique', 'expireAfterSeconds', 'sparse']);
    const sparse = options.sparse === true ? (true as const) : undefined;
    const name = options.name ?? Object.entries(keys).map(([field, direction]) => `${field}_${String(direction)}`).join('_');
    const unique = options.unique === true;
    const ttl = options.expireAfterSeconds;
    if (ttl !== undefined && (!Number.isSafeInteger(ttl) || ttl < 0 || Object.keys(keys).length !== 1 || '_id' in keys)) {
      throw new ServerDoubleError(67, `TTL index ${name}: expireAfterSeconds must be a whole number ≥ 0 on one field other than _id`);
    }
    // A wildcard index (`path.$**`) as MongoDB before 7.0 builds it: alone (not compound), neither unique nor TTL.
    if (Object.keys(keys).some((field) => field.endsWith('$**')) && (Object.keys(keys).length !== 1 || unique || ttl !== undefined)) {
      throw new ServerDoubleError(67, `index ${name}: a wildcard index has one wildcard key and is neither unique nor TTL`);
    }
    const sameKeys = (index: DoubleIndex) => JSON.stringify(index.keys) === JSON.stringify(keys);
    const named = this.#indexes.find((index) => index.name === name);
    if (named) {
      if (sameKeys(named) && named.unique === unique && named.expireAfterSeconds === ttl && named.sparse === sparse) return name;
      throw new ServerDoubleError(86, `An existing index has the same name as the requested index: ${name}`);
    }
    if (this.#indexes.some(sameKeys)) throw new ServerDoubleError(85, `Index already exists with a different name`);
    const index: DoubleIndex = { name, keys: { ...keys }, unique, ...(ttl === undefined ? {} : { expireAfterSeconds: ttl }), ...(sparse ? { sparse } : {}) };
    if (unique && sparse) throw new ServerDoubleError(67, `index ${name}: this double does not model unique sparse indexes`);
    if (unique) this.#documents.forEach((document) => this.#assertUnique(document, undefined, [index]));
    this.#indexes.push(index);
    return name;
  }

  /** Refuses, as the server does, a `hint` that names no index of the collection. */
  #requireHintedIndex(hint: string | Document): void {
    if (this.#indexes.some((candidate) => hintNames(hint, candidate))) return;
    throw new ServerDoubleError(2, 'error processing query: planner returned error :: caused by :: hint provided does not correspond to an existing index');
  }

  async insertOne(document: Document, options?: Document): Promise<Document> {
    await turn();
    allowOptions('insertOne', options, []);
    return { acknowledged: true, insertedId: this.#insert(document) };
  }

  /** Ordered, like the driver's default: documents before a duplicate stay inserted. */
  async insertMany(documents: Document[], options?: Document): Promise<Document> {
    await turn();
    allowOptions('insertMany', options, []);
    // The driver measures every document while it builds the batches, before sending any.
    for (const document of documents) {
      if (document._id === undefined) document._id = new ObjectId();
      if (bsonSize(document) >= MAX_DOCUMENT_BYTES) throw new DriverArgumentDoubleError(`Document is larger than the maximum size ${MAX_DOCUMENT_BYTES}`);
    }
    const insertedIds: Record<number, unknown> = {};
    documents.forEach((document, i) => (insertedIds[i] = this.#insert(document)));
    return { acknowledged: true, insertedCount: documents.length, insertedIds };
  }

  async findOne(filter: Document = {}, options?: { sort?: Sort; projection?: Document }): Promise<Document | null> {
    await turn();
    allowOptions('findOne', options, ['sort', 'projection']);
    const [found] = this.#matching(filter, options?.sort);
    return found ? copy(project(found, options?.projection)) : null;
  }

  find(filter: Document = {}, options?: { sort?: Sort; limit?: number; projection?: Document }): MingoCursorDouble {
    allowOptions('find', options, ['sort', 'limit', 'projection']);
    return new MingoCursorDouble(
      (sort, limit) => {
        const matching = this.#matching(filter, sort);
        const limited = limit > 0 ? matching.slice(0, limit) : matching;
        // Projected after sorting and limiting, as the server does, so a sort key need not be kept.
        return limited.map((document) => copy(project(document, options?.projection)));
      },
      options?.sort,
      options?.limit,
    );
  }

  async findOneAndUpdate(
    filter: Document,
    update: Document,
    options?: { upsert?: boolean; returnDocument?: 'before' | 'after'; sort?: Sort; projection?: Document },
  ): Promise<Document | null> {
    await turn();
    allowOptions('findOneAndUpdate', options, ['upsert', 'returnDocument', 'sort', 'projection']);
    const outcome = this.#updateOne(filter, update, options?.upsert === true, options?.sort);
    const returned = options?.returnDocument === 'after' ? outcome?.after : outcome?.before;
    return returned ? copy(project(returned, options?.projection)) : null;
  }

  /** Deletes the first match and returns it as it was, or null. */
  async findOneAndDelete(filter: Document, options?: Document): Promise<Document | null> {
    await turn();
    allowOptions('findOneAndDelete', options, []);
    const [target] = this.#matching(filter);
    if (!target) return null;
    this.#documents.splice(this.#documents.indexOf(target), 1);
    return copy(target);
  }

  /**
   * Deletes every match, in one operation (on a server other writes may land between its
   * documents). `hint` names the index to scan, by name or keys; one that names no index is
   * refused as the server refuses it (the command monitor checks that the index serves the filter).
   */
  async deleteMany(filter: Document, options?: { hint?: string | Document }): Promise<Document> {
    await turn();
    allowOptions('deleteMany', options, ['hint']);
    if (options?.hint !== undefined) this.#requireHintedIndex(options.hint);
    const targets = new Set(this.#matching(filter));
    const kept = this.#documents.filter((document) => !targets.has(document));
    this.#documents.splice(0, this.#documents.length, ...kept);
    return { acknowledged: true, deletedCount: targets.size };
  }

  /** Updates every match; on a duplicate key the documents updated before it stay updated, as on a server. */
  async updateMany(filter: Document, update: Document, options?: Document): Promise<Document> {
    await turn();
    allowOptions('updateMany', options, []);
    const { modifier } = splitUpdate(update);
    if ('$setOnInsert' in update) throw new Error('MingoCollectionDouble.updateMany does not support upserts');
    const targets = this.#matching(filter);
    const modified = targets.filter((target) => this.#applyTo(target, modifier).modified).length;
    return { acknowledged: true, matchedCount: targets.length, modifiedCount: modified, upsertedCount: 0, upsertedId: null };
  }

  /** A cursor over the pipeline's output, evaluated on `toArray` like the driver's. */
  aggregate(pipeline: Document[] = [], options?: Document): MingoCursorDouble {
    allowOptions('aggregate', options, []);
    return new MingoCursorDouble((sort, limit) => {
      if (sort || limit) throw new Error('MingoCollectionDouble.aggregate: put $sort and $limit in the pipeline');
      return runPipeline(this.#documents, pipeline).map((document) => copy(document));
    }, undefined);
  }

  async updateOne(filter: Document, update: Document, options?: { upsert?: boolean }): Promise<Document> {
    await turn();
    allowOptions('updateOne', options, ['upsert']);
    const outcome = this.#updateOne(filter, update, options?.upsert === true);
    const upserted = outcome?.before === null;
    return {
      acknowledged: true,
      matchedCount: outcome && !upserted ? 1 : 0,
      modifiedCount: outcome?.modified && !upserted ? 1 : 0,
      upsertedCount: upserted ? 1 : 0,
      upsertedId: upserted ? outcome!.after._id : null,
    };
  }

  /** Test inspection: copies of the stored documents, in insertion order. */
  documents(): Document[] {
    return this.#documents.map((document) => copy(document));
  }

  /** Test set-up: drops a declared index, as `dropIndex` would (an index an operator dropped, say). */
  dropIndexForTest(name: string): void {
    const at = this.#indexes.findIndex((index) => index.name === name);
    if (at <= 0) throw new Error(`no index ${name} to drop`);
    this.#indexes.splice(at, 1);
  }

  /** Test inspection: the indexes declared so far, `_id_` first. */
  indexes(): DoubleIndex[] {
    return this.#indexes.map((index) => ({ ...index, keys: { ...index.keys } }));
  }

  #insert(document: Document): unknown {
    // The driver adds `_id` to the caller's own document when it has none.
    if (document._id === undefined) document._id = new ObjectId();
    assertStorable(document, 'insert');
    const stored = copy(document);
    this.#assertUnique(stored);
    this.#documents.push(stored);
    return document._id;
  }

  #matching(filter: Document, sort?: Sort): Document[] {
    const cursor = find(this.#documents, filter);
    return (sort ? cursor.sort(sort) : cursor).all() as Document[];
  }

  #updateOne(filter: Document, update: Document, upsert: boolean, sort?: Sort) {
    const { modifier, setOnInsert } = splitUpdate(update);
    const [target] = this.#matching(filter, sort);
    if (target) return this.#applyTo(target, modifier);
    if (!upsert) return null;
    const seeded = seedFromFilter(filter);
    if (Object.keys(modifier).length > 0) applyModifier(seeded, modifier);
    if (setOnInsert) applyModifier(seeded, { $set: setOnInsert });
    const document = seeded._id === undefined ? { _id: new ObjectId(), ...seeded } : seeded;
    assertStorable(document, 'upsert');
    const inserted = copy(document);
    this.#assertUnique(inserted);
    this.#documents.push(inserted);
    return { before: null, after: inserted, modified: true };
  }

  /** Applies the modifier to a stored document, atomically: the whole change lands or none. */
  #applyTo(target: Document, modifier: Document): { before: Document; after: Document; modified: boolean } {
    if (Object.values(modifier).some((fields) => Object.keys(fields as Document).some((path) => path.split('.')[0] === '_id'))) {
      throw new ServerDoubleError(66, "Performing an update on the path '_id' would modify the immutable field '_id'");
    }
    assertApplicable(target, modifier);
    const after = copy(target);
    const changed = Object.keys(modifier).length > 0 ? withOwnPaths(after, modifier, () => applyModifier(after, modifier)) : [];
    assertStorable(after, 'update');
    const stored = copy(after);
    this.#assertUnique(stored, target);
    this.#documents[this.#documents.indexOf(target)] = stored;
    return { before: target, after: stored, modified: changed.length > 0 };
  }

  #assertUnique(document: Document, replacing?: Document, indexes: readonly DoubleIndex[] = this.#indexes): void {
    for (const index of indexes.filter((candidate) => candidate.unique)) {
      const keyValue = Object.fromEntries(Object.keys(index.keys).map((path) => [path, valueAt(document, path) ?? null]));
      const key = BSON.EJSON.stringify(keyValue, { relaxed: false });
      const clash = this.#documents.some((other) => {
        if (other === replacing || other === document) return false;
        const otherValue = Object.fromEntries(Object.keys(index.keys).map((path) => [path, valueAt(other, path) ?? null]));
        return BSON.EJSON.stringify(otherValue, { relaxed: false }) === key;
      });
      if (clash) throw new DuplicateKeyDoubleError(this.namespace, index.name, index.keys, keyValue);
    }
  }
}

/** The cursor `find` returns: `sort`, `limit` and `toArray`, evaluated on `toArray` like the driver's. */
export class MingoCursorDouble {
  constructor(
    private readonly run: (sort: Sort | undefined, limit: number) => Document[],
    private sortSpec: Sort | undefined,
    private limitCount = 0,
  ) {}

  sort(sort: Sort): this {
    this.sortSpec = sort;
    return this;
  }

  limit(limit: number): this {
    this.limitCount = limit;
    return this;
  }

  async toArray(): Promise<Document[]> {
    await turn();
    return this.run(this.sortSpec, this.limitCount);
  }
}
