import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { ensureIndexes } from '../storage/mongo-collections.js';
import { CommandCounter } from './command-counter.js';
import { unservedPipeline, unservedQuery, type IndexShape } from './index-coverage.js';
import { MingoDatabaseDouble } from './mingo-database-double.js';

const ID: IndexShape = { name: '_id_', keys: { _id: 1 } };
const LIST: IndexShape = { name: 'tenant_created_id', keys: { tenantId: 1, createdAt: -1, _id: -1 } };
const DUE: IndexShape = { name: 'status_due', keys: { status: 1, nextAttemptAt: 1 } };
const indexes = [ID, LIST, DUE];
const served = (filter: object, sort?: Record<string, 1 | -1>) => unservedQuery(indexes, filter, sort) === null;

describe('Index coverage of the collection double', () => {
  describe('when a filter is checked', () => {
    it('is served when an index’s first key is bound by an equality, an $in or a range', () => {
      expect(served({ _id: new ObjectId(), tenantId: 'a' })).to.equal(true);
      expect(served({ tenantId: 'a', other: 1 })).to.equal(true);
      expect(served({ status: { $in: ['pending', 'sent'] } })).to.equal(true);
      expect(served({ tenantId: { $eq: 'a' } })).to.equal(true);
      expect(served({ $and: [{ tenantId: 'a' }, { createdAt: { $lt: new Date() } }] })).to.equal(true);
    });

    it('is not served by a field no index starts with, nor by operators that bind nothing', () => {
      expect(served({ createdAt: new Date() })).to.equal(false);
      expect(served({})).to.equal(false);
      expect(served({ tenantId: { $ne: 'a' } })).to.equal(false);
      expect(served({ status: { $exists: true } })).to.equal(false);
      expect(unservedQuery(indexes, { slug: 'x', tenantId: { $nin: ['a'] } }, undefined)).to.equal(
        'no index serves filter {slug: =, tenantId: {$nin}} (indexes: _id_ {"_id":1}, tenant_created_id {"tenantId":1,"createdAt":-1,"_id":-1}, status_due {"status":1,"nextAttemptAt":1})',
      );
    });

    it('serves a filter by a sparse index only when a document without its field cannot match', () => {
      const marker: IndexShape = { name: 'recover_at', keys: { recoverAt: 1 }, sparse: true };
      const bySparse = (filter: object, sort?: Record<string, 1 | -1>) => unservedQuery([ID, marker], filter, sort) === null;
      expect(bySparse({ recoverAt: { $lte: new Date() } }, { recoverAt: 1 })).to.equal(true);
      expect(bySparse({ recoverAt: new Date() })).to.equal(true);
      expect(bySparse({ recoverAt: null })).to.equal(false);
      expect(bySparse({ recoverAt: { $in: [new Date(), null] } })).to.equal(false);
      expect(bySparse({ recoverAt: { $gte: null } })).to.equal(false);
      expect(unservedQuery([ID, { ...marker, sparse: false }], { recoverAt: null }, undefined)).to.equal(null);
    });

    it('serves a filter by a wildcard index when it binds a path under it with a condition a missing path cannot meet, and no sort', () => {
      const relations: IndexShape = { name: 'relations_wildcard', keys: { 'relations.$**': 1 } };
      const byWildcard = (filter: object, sort?: Record<string, 1 | -1>) => unservedQuery([ID, relations], filter, sort) === null;
      expect(byWildcard({ tenantId: 'a', 'relations.links': { $in: ['x', 'y'] } })).to.equal(true);
      expect(byWildcard({ $and: [{ 'relations.links': { $type: 'array' } }, { 'relations.links': { $in: ['x'] } }] })).to.equal(true);
      expect(byWildcard({ 'relations.links': 'x' })).to.equal(true);
      expect(byWildcard({ 'relations.links': null }), 'a missing path matches null').to.equal(false);
      expect(byWildcard({ 'relations.links': { $exists: true } })).to.equal(false);
      expect(byWildcard({ relations: { links: 'x' } }), 'the object itself').to.equal(false);
      expect(byWildcard({ 'relationsX.links': 'x' })).to.equal(false);
      expect(byWildcard({ 'relations.links': 'x' }, { createdAt: -1 })).to.equal(false);
    });

    it('serves a top-level $or when the rest is served, or else when every branch is', () => {
      expect(served({ status: 'pending', $or: [{ claimedUntil: null }, { claimedUntil: { $lte: new Date() } }] })).to.equal(true);
      expect(served({ $or: [{ tenantId: 'a' }, { status: 'pending' }] })).to.equal(true);
      expect(served({ $or: [{ tenantId: 'a' }, { slug: 'x' }] })).to.equal(false);
    });
  });

  describe('when a sort is checked', () => {
    it('is served when the index gives the order after its pinned fields, in its directions or all reversed', () => {
      expect(served({ tenantId: 'a' }, { createdAt: -1, _id: -1 })).to.equal(true);
      expect(served({ tenantId: 'a' }, { createdAt: 1, _id: 1 })).to.equal(true);
      expect(served({ tenantId: 'a', createdAt: { $lt: new Date() } }, { createdAt: -1, _id: -1 })).to.equal(true);
      expect(served({ tenantId: 'a', $or: [{ createdAt: { $lt: new Date() } }, { createdAt: new Date(), _id: { $lt: new ObjectId() } }] }, { createdAt: -1, _id: -1 })).to.equal(true);
      expect(served({ status: 'pending', nextAttemptAt: { $lte: new Date() } }, { nextAttemptAt: 1 })).to.equal(true);
      // A sort on pinned fields only is no sort at all.
      expect(served({ tenantId: 'a' }, { tenantId: 1 })).to.equal(true);
    });

    it('is not served when it pins a field the index does not hold: a page would read every record the index walks past', () => {
      // A list of one author's articles on the tenant's list index: each page filters fetched documents.
      expect(served({ tenantId: 'a', authorId: 'x' }, { createdAt: -1, _id: -1 })).to.equal(false);
      const byAuthor: IndexShape = { name: 'tenant_author_created', keys: { tenantId: 1, authorId: 1, createdAt: -1, _id: -1 } };
      expect(unservedQuery([...indexes, byAuthor], { tenantId: 'a', authorId: 'x' }, { createdAt: -1, _id: -1 })).to.equal(null);
      // Without a sort the same filter is served: no page, the rest is filtered on what the index finds.
      expect(served({ tenantId: 'a', authorId: 'x' })).to.equal(true);
    });

    it('is not served by mixed directions, a missing tie-breaker, a skipped key or a field before the sort that is not pinned', () => {
      expect(served({ tenantId: 'a' }, { createdAt: -1, _id: 1 })).to.equal(false);
      expect(served({ tenantId: 'a' }, { createdAt: -1, slug: 1 })).to.equal(false);
      expect(served({ tenantId: 'a' }, { _id: -1 })).to.equal(false);
      expect(served({ tenantId: { $in: ['a', 'b'] } }, { createdAt: -1 })).to.equal(false);
    });

    it('accepts an empty filter in the order of an index (a full listing by index), never an unsorted one', () => {
      expect(served({}, { _id: 1 })).to.equal(true);
      expect(served({}, { slug: 1 })).to.equal(false);
    });
  });

  describe('when an aggregation is checked', () => {
    it('reads its leading $match and the $sort after it; a pipeline starting otherwise scans the collection', () => {
      expect(unservedPipeline(indexes, [{ $match: { status: { $in: ['a'] } } }, { $group: { _id: '$status' } }])).to.equal(null);
      expect(unservedPipeline(indexes, [{ $match: { tenantId: 'a' } }, { $sort: { createdAt: -1, _id: -1 } }])).to.equal(null);
      expect(unservedPipeline(indexes, [{ $sort: { _id: 1 } }])).to.equal(null);
      expect(unservedPipeline(indexes, [{ $group: { _id: '$status', count: { $sum: 1 } } }])).to.match(/starts with neither \$match nor \$sort/);
    });
  });

  describe('when repositories query through the database double', () => {
    it('refuses a query no declared index serves, reports it, and counts it like the driver', async () => {
      const db = new MingoDatabaseDouble();
      await ensureIndexes(db);
      const counter = CommandCounter.onDouble(db);
      const forms = db.collection('forms');
      const error = await forms.findOne({ title: 'x' }).catch((e: Error) => e);
      expect((error as Error).message).to.match(/^MingoDatabaseDouble: cms_double\.forms find: no index serves filter \{title: =\}/);
      expect(db.unservedQueries()).to.have.length(1);
      expect(await forms.find({ tenantId: 'a', slug: 'x' }).sort({ slug: 1 }).limit(1).toArray()).to.deep.equal([]);
      await forms.insertOne({ tenantId: 'a', slug: 'y' });
      expect(counter.take()).to.deep.equal(['find forms', 'find forms', 'insert forms']);
    });

    it('only records the query when coverage is off', async () => {
      const db = new MingoDatabaseDouble('cms_double', { indexCoverage: 'off' });
      expect(await db.collection('forms').find({ title: 'x' }).toArray()).to.deep.equal([]);
      expect(db.unservedQueries()).to.deep.equal(['cms_double.forms find: no index serves filter {title: =} (indexes: _id_ {"_id":1})']);
    });

    it('fails loudly on a collection method it has no command for', () => {
      const db = new MingoDatabaseDouble();
      const collection = db.collection('forms') as unknown as Record<string, () => unknown>;
      expect(() => collection.documents!()).to.throw(/no row for Collection\.documents/);
    });
  });
});
