import { expect } from 'chai';
import { ObjectId, type Document } from 'mongodb';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { MingoDatabaseDouble, type MingoCollectionDouble } from './mingo-collection-double.js';

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

    it('refuses options and commands it does not implement instead of ignoring them', async () => {
      expect((await failure(things.findOneAndUpdate({}, { $set: { n: 1 } }, { includeResultMetadata: true } as never))).message).to.equal(
        'MingoCollectionDouble.findOneAndUpdate does not support option "includeResultMetadata"',
      );
      expect(() => things.find({}, { skip: 1 } as never)).to.throw('does not support option "skip"');
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
});
