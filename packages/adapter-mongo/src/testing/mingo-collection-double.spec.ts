import { expect } from 'chai';
import { BSON, ObjectId, type Document } from 'mongodb';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import type { MingoCollectionDouble } from './mingo-collection-double.js';
import { MingoDatabaseDouble } from './mingo-database-double.js';

describe('MingoCollectionDouble', () => {
  let db: MingoDatabaseDouble;
  let things: MingoCollectionDouble;
  beforeEach(async () => {
    db = new MingoDatabaseDouble('shop');
    things = db.collectionDouble('things');
    await things.createIndex({ tenantId: 1, slug: 1 }, { name: 'tenant_slug_unique', unique: true });
  });
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('expected a failure');
      },
      (error: Document) => error,
    );

  describe('when a unique index is violated', () => {
    it('throws an error shaped like the driver’s duplicate key error', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a' });
      const error = await failure(things.insertOne({ tenantId: 'acme', slug: 'a' }));
      expect(error.name).to.equal('MongoServerError');
      expect(error.code).to.equal(11000);
      expect(error.keyPattern).to.deep.equal({ tenantId: 1, slug: 1 });
      expect(error.keyValue).to.deep.equal({ tenantId: 'acme', slug: 'a' });
      expect(error.message).to.equal(
        'E11000 duplicate key error collection: shop.things index: tenant_slug_unique dup key: {"tenantId":"acme","slug":"a"}',
      );
      expect(isDuplicateKeyError(error)).to.equal(true);
      expect(things.documents()).to.have.length(1);
    });

    it('allows the same key in another tenant', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a' });
      await things.insertOne({ tenantId: 'other', slug: 'a' });
      expect(things.documents()).to.have.length(2);
    });

    it('enforces `_id` uniqueness, comparing ObjectIds by value', async () => {
      const id = new ObjectId();
      await things.insertOne({ _id: id, tenantId: 'acme', slug: 'a' });
      const error = await failure(things.insertOne({ _id: new ObjectId(id.toHexString()), tenantId: 'acme', slug: 'b' }));
      expect(error.code).to.equal(11000);
      expect(error.message).to.contain('index: _id_');
    });

    it('refuses an update that would create a duplicate and keeps the document', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a' });
      await things.insertOne({ tenantId: 'acme', slug: 'b' });
      const error = await failure(things.updateOne({ slug: 'b' }, { $set: { slug: 'a' } }));
      expect(error.code).to.equal(11000);
      expect(things.documents().map((d) => d.slug)).to.deep.equal(['a', 'b']);
    });

    it('refuses an upsert that would insert a duplicate', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', colour: 'red' });
      const error = await failure(things.updateOne({ colour: 'blue' }, { $set: { tenantId: 'acme', slug: 'a' } }, { upsert: true }));
      expect(error.code).to.equal(11000);
    });

    it('refuses a unique index over existing duplicates', async () => {
      const other = db.collectionDouble('other');
      await other.insertOne({ email: 'x' });
      await other.insertOne({ email: 'x' });
      expect((await failure(other.createIndex({ email: 1 }, { unique: true }))).code).to.equal(11000);
    });
  });

  describe('when upserting', () => {
    it('seeds the new document from the filter’s equalities and applies $setOnInsert once', async () => {
      const upsert = (colour: string) =>
        things.findOneAndUpdate(
          { tenantId: 'acme', slug: { $eq: 'a' }, size: { $gt: 1 } },
          { $set: { colour }, $setOnInsert: { createdBy: colour } },
          { upsert: true, returnDocument: 'after' },
        );
      const created = await upsert('red');
      expect(created?._id).to.be.instanceOf(ObjectId);
      expect(created).to.deep.include({ tenantId: 'acme', slug: 'a', colour: 'red', createdBy: 'red' });
      expect(created).not.to.have.property('size');
      const later = await things.findOneAndUpdate(
        { tenantId: 'acme', slug: 'a' },
        { $set: { colour: 'blue' }, $setOnInsert: { createdBy: 'blue' } },
        { upsert: true, returnDocument: 'after' },
      );
      expect(later).to.deep.include({ colour: 'blue', createdBy: 'red' });
      expect(things.documents()).to.have.length(1);
    });

    it('returns the document before the change by default, so null for an insert', async () => {
      expect(await things.findOneAndUpdate({ tenantId: 'acme', slug: 'a' }, { $set: { n: 1 } }, { upsert: true })).to.equal(null);
      expect((await things.findOneAndUpdate({ tenantId: 'acme', slug: 'a' }, { $set: { n: 2 } }))?.n).to.equal(1);
    });

    it('reports matched, modified and upserted counts like the driver', async () => {
      const inserted = await things.updateOne({ tenantId: 'acme', slug: 'a' }, { $set: { n: 1 } }, { upsert: true });
      expect(inserted).to.deep.include({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
      expect(inserted.upsertedId).to.be.instanceOf(ObjectId);
      expect(await things.updateOne({ slug: 'a' }, { $set: { n: 1 } })).to.deep.include({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
      expect(await things.updateOne({ slug: 'a' }, { $inc: { n: 1 } })).to.deep.include({ matchedCount: 1, modifiedCount: 1 });
      expect(await things.updateOne({ slug: 'zzz' }, { $inc: { n: 1 } })).to.deep.include({ matchedCount: 0, upsertedCount: 0 });
    });
  });

  describe('when an operation is outside what MongoDB or the double accepts', () => {
    it('refuses a replacement document, conflicting paths and a changed _id like the server', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', a: { b: 1 } });
      expect((await failure(things.updateOne({ slug: 'a' }, { slug: 'b' }))).message).to.equal('Update document requires atomic operators');
      expect((await failure(things.updateOne({ slug: 'a' }, { $set: { a: 1 }, $inc: { 'a.b': 1 } }))).code).to.equal(40);
      expect((await failure(things.updateOne({ slug: 'a' }, { $set: { n: 1 }, $setOnInsert: { n: 2 } }))).code).to.equal(40);
      expect((await failure(things.updateOne({ slug: 'a' }, { $set: { _id: new ObjectId() } }))).code).to.equal(66);
    });

    it('refuses $addToSet onto a field that holds something other than an array, null included', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', r: { one: 'x', none: null, list: ['x'] } });
      for (const [field, type] of [['one', 'string'], ['none', 'null']] as const) {
        const error = await failure(things.updateOne({ slug: 'a' }, { $addToSet: { [`r.${field}`]: 'y' } }));
        expect(error.code).to.equal(2);
        expect(error.message).to.equal(`Cannot apply $addToSet to non-array field. Field named '${field}' has non-array type ${type}`);
      }
      await things.updateOne({ slug: 'a' }, { $addToSet: { 'r.list': 'y', 'r.fresh': 'z' } });
      expect((await things.findOne({ slug: 'a' }))?.r).to.deep.equal({ one: 'x', none: null, list: ['x', 'y'], fresh: ['z'] });
    });

    it('refuses, as the server does, $pull and $push onto a non-array, $inc onto a non-number, and a field inside a value that holds none', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', s: 'text', z: null, n: 1, list: [{ k: 1 }], d: { e: 1 } });
      const before = await things.findOne({ slug: 'a' });
      const refusals: Array<[Document, number, string]> = [
        [{ $pull: { s: 'x' } }, 2, 'Cannot apply $pull to a non-array value'],
        [{ $pull: { z: 'x' } }, 2, 'Cannot apply $pull to a non-array value'],
        [{ $push: { d: 'x' } }, 2, "The field 'd' must be an array but is of type object"],
        [{ $inc: { s: 1 } }, 14, "Cannot apply $inc to a value of non-numeric type. {_id: "],
        [{ $inc: { z: 1 } }, 14, "has the field 'z' of non-numeric type null"],
        [{ $set: { 's.a': 1 } }, 28, "Cannot create field 'a' in element {s: \"text\"}"],
        [{ $set: { 'z.a': 1 } }, 28, "Cannot create field 'a' in element {z: null}"],
        [{ $set: { 'n.a.b': 1 } }, 28, "Cannot create field 'a' in element {n: 1}"],
        [{ $set: { 'list.k': 1 } }, 28, "Cannot create field 'k'"],
        [{ $addToSet: { 's.a': 1 } }, 28, "Cannot create field 'a'"],
      ];
      for (const [update, code, message] of refusals) {
        const error = await failure(things.updateOne({ slug: 'a' }, update));
        expect([error.code, error.message.includes(message)], JSON.stringify(update)).to.deep.equal([code, true]);
      }
      expect(await things.findOne({ slug: 'a' })).to.deep.equal(before);
      // What the server takes: a new field below a missing or a document one, an element of an array, $pull on a missing field.
      await things.updateOne({ slug: 'a' }, { $set: { 'fresh.a.b': 1, 'd.f': 2, 'list.0.k': 3 }, $pull: { missing: 'x' }, $inc: { n: 1 } });
      expect(await things.findOne({ slug: 'a' })).to.deep.include({ fresh: { a: { b: 1 } }, d: { e: 1, f: 2 }, list: [{ k: 3 }], n: 2 });
    });

    it('refuses options and commands it does not implement instead of ignoring them', async () => {
      expect((await failure(things.findOneAndUpdate({}, { $set: { n: 1 } }, { includeResultMetadata: true } as never))).message).to.equal(
        'MingoCollectionDouble.findOneAndUpdate does not support option "includeResultMetadata"',
      );
      expect(() => things.find({}, { skip: 1 } as never)).to.throw('does not support option "skip"');
      expect((await failure(things.findOneAndDelete({}, { sort: { n: 1 } } as never))).message).to.contain('does not support option "sort"');
      expect((await failure(things.updateMany({}, { $set: { n: 1 } }, { upsert: true } as never))).message).to.contain('does not support option "upsert"');
      expect((await failure(db.command({ dropDatabase: 1 }))).message).to.contain('supports only { ping: 1 }');
      expect(await db.command({ ping: 1 })).to.deep.equal({ ok: 1 });
    });

    it('accepts an identical index again but refuses a different one under the same name', async () => {
      expect(await things.createIndex({ tenantId: 1, slug: 1 }, { name: 'tenant_slug_unique', unique: true })).to.equal('tenant_slug_unique');
      expect((await failure(things.createIndex({ tenantId: 1 }, { name: 'tenant_slug_unique' }))).code).to.equal(86);
      expect((await failure(things.createIndex({ tenantId: 1, slug: 1 }, { name: 'another' }))).code).to.equal(85);
      expect(things.indexes().map((index) => index.name)).to.deep.equal(['_id_', 'tenant_slug_unique']);
    });
  });

  describe('when documents go in and out', () => {
    it('stores copies through BSON: later changes to inputs or results do not reach the store', async () => {
      const input: Document = { tenantId: 'acme', slug: 'a', tags: ['x'], missing: undefined, at: new Date(5) };
      await things.insertOne(input);
      expect(input._id).to.be.instanceOf(ObjectId);
      input.tags.push('y');
      const found = await things.findOne({ slug: 'a' });
      found!.tags.push('z');
      const again = await things.findOne({ _id: input._id });
      expect(again).to.deep.equal({ _id: input._id, tenantId: 'acme', slug: 'a', tags: ['x'], missing: null, at: new Date(5) });
    });

    it('sorts and limits like a cursor, evaluated on toArray', async () => {
      for (const [slug, n] of [['a', 2], ['b', 3], ['c', 1]] as const) await things.insertOne({ tenantId: 'acme', slug, n });
      const cursor = things.find({ tenantId: 'acme' }, { sort: { n: -1 } });
      await things.insertOne({ tenantId: 'acme', slug: 'd', n: 9 });
      expect((await cursor.limit(3).toArray()).map((d) => d.slug)).to.deep.equal(['d', 'b', 'a']);
      expect((await things.find({ n: { $lte: 2 } }).sort({ n: 1 }).toArray()).map((d) => d.slug)).to.deep.equal(['c', 'a']);
    });

    it('projects found documents like the server: inclusion keeps _id unless excluded, exclusion drops fields', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', n: 2, deep: { x: 1 } });
      await things.insertOne({ tenantId: 'acme', slug: 'b', n: 1, deep: { x: 2 } });
      const [first] = await things.find({ slug: 'a' }).toArray();
      expect(await things.find({ slug: 'a' }, { projection: { _id: 1 } }).toArray()).to.deep.equal([{ _id: first!._id }]);
      expect(await things.find({ tenantId: 'acme' }, { projection: { slug: 1, _id: 0 }, sort: { n: 1 } }).toArray()).to.deep.equal([{ slug: 'b' }, { slug: 'a' }]);
      expect(await things.find({ slug: 'b' }, { projection: { deep: 0, _id: 0, tenantId: 0 } }).toArray()).to.deep.equal([{ slug: 'b', n: 1 }]);
      const [projected] = await things.find({ slug: 'a' }, { projection: { deep: 1 } }).toArray();
      projected!.deep.x = 99;
      expect((await things.findOne({ slug: 'a' }))?.deep).to.deep.equal({ x: 1 });
    });

    it('lets concurrent callers interleave between operations, as against a server', async () => {
      // A read-then-write done twice at once: both reads run before either write, so an adapter
      // that relied on read-then-write would be caught by the unique index.
      const readThenInsert = async () => {
        if (await things.findOne({ tenantId: 'acme', slug: 'a' })) return 'found';
        await things.insertOne({ tenantId: 'acme', slug: 'a' });
        return 'inserted';
      };
      const outcomes = await Promise.allSettled([readThenInsert(), readThenInsert()]);
      expect(outcomes.map((o) => o.status)).to.deep.equal(['fulfilled', 'rejected']);
      expect(((outcomes[1] as PromiseRejectedResult).reason as Document).code).to.equal(11000);
    });
  });
  describe('when reads project fields', () => {
    it('returns the included fields with _id first, or everything but the excluded ones', async () => {
      const { insertedId } = await things.insertOne({ tenantId: 'acme', slug: 'a', body: 'long', likes: 2 });
      const included = await things.findOne({ slug: 'a' }, { projection: { likes: 1 } });
      expect(Object.keys(included!)).to.deep.equal(['_id', 'likes']);
      expect(included).to.deep.equal({ _id: insertedId, likes: 2 });
      expect(await things.findOne({ slug: 'a' }, { projection: { _id: 0, body: 0 } })).to.deep.equal({ tenantId: 'acme', slug: 'a', likes: 2 });
      expect(await things.find({ tenantId: 'acme' }, { projection: { slug: 1, _id: 0 } }).toArray()).to.deep.equal([{ slug: 'a' }]);
    });

    it('projects what findOneAndUpdate returns, after the whole update was applied', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', body: 'long', likes: 2 });
      const after = await things.findOneAndUpdate({ slug: 'a' }, { $inc: { likes: 3 }, $set: { body: 'x' } }, { returnDocument: 'after', projection: { likes: 1, _id: 0 } });
      expect(after).to.deep.equal({ likes: 5 });
      expect(things.documents()[0]).to.deep.include({ body: 'x', likes: 5 });
    });
  });

  describe('when deleting one document', () => {
    it('deletes the first match and returns it as it was, and null when nothing matches', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', n: 1 });
      await things.insertOne({ tenantId: 'acme', slug: 'b', n: 2 });
      expect(await things.findOneAndDelete({ tenantId: 'acme', slug: 'b' })).to.deep.include({ slug: 'b', n: 2 });
      expect(await things.findOneAndDelete({ tenantId: 'acme', slug: 'b' })).to.equal(null);
      expect(things.documents().map((d) => d.slug)).to.deep.equal(['a']);
    });

    it('hands a document to exactly one of several racing deletions', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a' });
      const results = await Promise.all(Array.from({ length: 6 }, () => things.findOneAndDelete({ tenantId: 'acme', slug: 'a' })));
      expect(results.filter((r) => r !== null)).to.have.length(1);
    });
  });

  describe('when deleting many documents through a named index', () => {
    it('takes the index by name or by keys, and refuses a hint that names none as the server does', async () => {
      await things.insertMany([{ tenantId: 'acme', slug: 'a' }, { tenantId: 'acme', slug: 'b' }, { tenantId: 'other', slug: 'a' }]);
      expect(await things.deleteMany({ tenantId: 'acme', slug: 'a' }, { hint: 'tenant_slug_unique' })).to.deep.include({ deletedCount: 1 });
      expect(await things.deleteMany({ tenantId: 'acme' }, { hint: { tenantId: 1, slug: 1 } })).to.deep.include({ deletedCount: 1 });
      const refused = await failure(things.deleteMany({ tenantId: 'other' }, { hint: 'no_such_index' }));
      expect(refused).to.include({ code: 2 });
      expect(refused.message).to.contain('hint provided does not correspond to an existing index');
      expect(things.documents().map((d) => d.tenantId)).to.deep.equal(['other']);
    });

    it('has the monitor check the query against the named index alone, and report the hint', async () => {
      await things.createIndex({ n: 1 }, { name: 'n' });
      const monitored = db.collection('things');
      const commands: Document[] = [];
      db.onCommand((event) => commands.push(event.command));
      await monitored.deleteMany({ tenantId: 'acme', n: 1 }, { hint: 'n' });
      expect(commands).to.deep.equal([{ delete: 'things', filter: { tenantId: 'acme', n: 1 }, hint: 'n' }]);
      // Served by `tenant_slug_unique`, but not by the index it names.
      const unserved = await failure(monitored.deleteMany({ tenantId: 'acme' }, { hint: 'n' }));
      expect(unserved.message).to.match(/^MingoDatabaseDouble: shop\.things delete: no index serves filter \{tenantId: =\}/);
    });
  });

  describe('when updating many documents', () => {
    it('updates every match and reports matched and modified counts like the driver', async () => {
      for (const [slug, owner] of [['a', 'x'], ['b', 'x'], ['c', null], ['d', 'y']] as const) await things.insertOne({ tenantId: 'acme', slug, owner });
      await things.insertOne({ tenantId: 'other', slug: 'a', owner: 'x' });
      const result = await things.updateMany({ tenantId: 'acme', $or: [{ owner: 'x' }, { owner: null }] }, { $set: { owner: null } });
      expect(result).to.deep.include({ acknowledged: true, matchedCount: 3, modifiedCount: 2, upsertedCount: 0, upsertedId: null });
      expect(things.documents().map((d) => `${d.tenantId}/${d.slug}:${d.owner}`)).to.deep.equal(['acme/a:null', 'acme/b:null', 'acme/c:null', 'acme/d:y', 'other/a:x']);
      expect(await things.updateMany({ slug: 'zzz' }, { $set: { owner: 'q' } })).to.deep.include({ matchedCount: 0, modifiedCount: 0 });
    });

    it('keeps the documents updated before a duplicate key, as a server does', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', n: 1 });
      await things.insertOne({ tenantId: 'acme', slug: 'b', n: 1 });
      const error = await failure(things.updateMany({ n: 1 }, { $set: { slug: 'c', n: 2 } }));
      expect(error.code).to.equal(11000);
      expect(things.documents().map((d) => `${d.slug}:${d.n}`)).to.deep.equal(['c:2', 'b:1']);
    });
  });

  describe('when aggregating', () => {
    it('groups and counts by ObjectId and string keys like the server', async () => {
      const [x, y, z] = [new ObjectId(), new ObjectId(), new ObjectId()];
      const rows: Array<[string, ObjectId, string]> = [['acme', x, 'like'], ['acme', x, 'like'], ['acme', x, 'dislike'], ['acme', y, 'dislike'], ['acme', z, 'like'], ['other', x, 'like']];
      for (const [tenantId, target, type] of rows) await things.insertOne({ tenantId, slug: new ObjectId().toHexString(), target, type });
      const groups = await things
        .aggregate([
          { $match: { tenantId: 'acme', target: { $in: [new ObjectId(x.toHexString()), y] } } },
          { $group: { _id: { target: '$target', type: '$type' }, count: { $sum: 1 } } },
          { $sort: { count: -1, '_id.type': 1 } },
        ])
        .toArray();
      expect(groups[0]).to.deep.equal({ _id: { target: x, type: 'like' }, count: 2 });
      expect(groups.slice(1).map((g) => `${g._id.target.toHexString() === x.toHexString() ? 'x' : 'y'}:${g._id.type}:${g.count}`)).to.have.members(['x:dislike:1', 'y:dislike:1']);
      expect(groups[0]?._id.target).to.be.instanceOf(ObjectId);
    });

    it('is evaluated when read, returns copies, and refuses stages and options it does not cover', async () => {
      const cursor = things.aggregate([{ $match: { tenantId: 'acme' } }, { $project: { slug: 1, _id: 0 } }]);
      await things.insertOne({ tenantId: 'acme', slug: 'late', tags: ['t'] });
      const [row] = await cursor.toArray();
      expect(row).to.deep.equal({ slug: 'late' });
      expect(() => things.aggregate([], { allowDiskUse: true })).to.throw('does not support option "allowDiskUse"');
      expect((await failure(things.aggregate([{ $lookup: { from: 'x' } }]).toArray())).message).to.contain('does not support the stage ["$lookup"]');
    });
  });

  describe('when a document would pass the 16 MiB BSON limit', () => {
    const MiB = 1024 * 1024;
    /** A document of exactly `bytes` bytes of BSON (its `s` fills what the other fields leave). */
    const sized = (bytes: number, slug: string) => {
      const document = { _id: new ObjectId(), tenantId: 'acme', slug, s: '' };
      return { ...document, s: 'x'.repeat(bytes - BSON.calculateObjectSize(document)) };
    };

    it('stores one of exactly 16 MiB through insertOne, and refuses one byte more as the server does (code 2)', async () => {
      await things.insertOne(sized(16 * MiB, 'at-limit'));
      const error = await failure(things.insertOne(sized(16 * MiB + 1, 'over')));
      expect([error.name, error.code]).to.deep.equal(['MongoServerError', 2]);
      expect(error.message).to.equal(`object to insert too large. size in bytes: ${16 * MiB + 1}, max size: ${16 * MiB}`);
      expect(things.documents()).to.have.length(1);
    });

    it('refuses in insertMany, as the driver does before sending, one of 16 MiB or more, and inserts none of the batch', async () => {
      const error = await failure(things.insertMany([{ tenantId: 'acme', slug: 'small' }, sized(16 * MiB, 'at-limit')]));
      expect([error.name, error.message]).to.deep.equal(['MongoInvalidArgumentError', `Document is larger than the maximum size ${16 * MiB}`]);
      expect(things.documents()).to.deep.equal([]);
    });

    it('refuses an update or an upsert whose result is larger, keeping the stored document (codes 17419, 17420)', async () => {
      await things.insertOne({ tenantId: 'acme', slug: 'a', s: 'x'.repeat(9 * MiB) });
      const grown = await failure(things.findOneAndUpdate({ slug: 'a' }, { $set: { t: 'y'.repeat(8 * MiB) } }));
      expect([grown.name, grown.code, grown.message]).to.deep.equal(['MongoServerError', 17419, `Resulting document after update is larger than ${16 * MiB}`]);
      expect((await failure(things.updateMany({ slug: 'a' }, { $set: { t: 'y'.repeat(8 * MiB) } }))).code).to.equal(17419);
      expect(things.documents()[0]).not.to.have.property('t');
      const upserted = await failure(things.updateOne({ slug: 'b' }, { $setOnInsert: { s: 'x'.repeat(17 * MiB) } }, { upsert: true }));
      expect([upserted.code, upserted.message]).to.deep.equal([17420, `Document to upsert is larger than ${16 * MiB}`]);
      expect(things.documents()).to.have.length(1);
    });
  });

  describe('when a TTL index is declared', () => {
    it('records expireAfterSeconds, accepts the same index again and refuses it changed or on several fields', async () => {
      expect(await things.createIndex({ expiresAt: 1 }, { name: 'expires_ttl', expireAfterSeconds: 0 })).to.equal('expires_ttl');
      expect(await things.createIndex({ expiresAt: 1 }, { name: 'expires_ttl', expireAfterSeconds: 0 })).to.equal('expires_ttl');
      expect(things.indexes().find((index) => index.name === 'expires_ttl')).to.deep.equal({ name: 'expires_ttl', keys: { expiresAt: 1 }, unique: false, expireAfterSeconds: 0 });
      expect((await failure(things.createIndex({ expiresAt: 1 }, { name: 'expires_ttl', expireAfterSeconds: 60 }))).code).to.equal(86);
      expect((await failure(things.createIndex({ tenantId: 1, at: 1 }, { name: 'compound_ttl', expireAfterSeconds: 0 }))).code).to.equal(67);
    });
  });

  describe('when a wildcard index is declared', () => {
    it('takes one wildcard key, and refuses it compound, unique or TTL as MongoDB before 7.0 does', async () => {
      expect(await things.createIndex({ 'relations.$**': 1 }, { name: 'relations_wildcard' })).to.equal('relations_wildcard');
      expect((await failure(things.createIndex({ tenantId: 1, 'relations.$**': 1 }, { name: 'compound' }))).code).to.equal(67);
      expect((await failure(things.createIndex({ 'values.$**': 1 }, { name: 'unique', unique: true }))).code).to.equal(67);
      expect((await failure(things.createIndex({ 'values.$**': 1 }, { name: 'ttl', expireAfterSeconds: 0 }))).code).to.equal(67);
    });
  });

  describe('when a sparse index is declared', () => {
    it('records it as sparse, accepts it again and refuses it declared otherwise under its name', async () => {
      expect(await things.createIndex({ recoverAt: 1 }, { name: 'recover_at', sparse: true })).to.equal('recover_at');
      expect(await things.createIndex({ recoverAt: 1 }, { name: 'recover_at', sparse: true })).to.equal('recover_at');
      expect(things.indexes().find((index) => index.name === 'recover_at')).to.deep.equal({ name: 'recover_at', keys: { recoverAt: 1 }, unique: false, sparse: true });
      expect((await failure(things.createIndex({ recoverAt: 1 }, { name: 'recover_at' }))).code).to.equal(86);
    });
  });
});
