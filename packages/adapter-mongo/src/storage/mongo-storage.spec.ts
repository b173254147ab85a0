import { expect } from 'chai';
import sinon from 'sinon';
import { MongoClient, type Document, type WriteConcern } from 'mongodb';
import { MingoDatabaseDouble } from '../testing/mingo-database-double.js';
import { Collections, GLOBAL_COLLECTIONS, INDEXES, ensureIndexes } from './mongo-collections.js';
import { MongoStorage } from './mongo-storage.js';

describe('MongoStorage', () => {
  describe('when indexes are ensured', () => {
    it('creates every declared index and is idempotent', async () => {
      const db = new MingoDatabaseDouble();
      const storage = MongoStorage.over(db);
      await storage.ensureIndexes();
      await storage.ensureIndexes();
      for (const name of Object.values(Collections)) {
        const declared = INDEXES.filter((index) => index.collection === name).map((index) => index.name);
        expect(db.collectionDouble(name).indexes().map((index) => index.name)).to.deep.equal(['_id_', ...declared]);
      }
      expect(db.collectionDouble(Collections.dashboardConfigs).indexes()[1]).to.deep.equal({
        name: 'tenant_user_unique',
        keys: { tenantId: 1, userId: 1 },
        unique: true,
      });
    });

    it('puts tenantId first in every index of a tenant-scoped collection', () => {
      const tenantScoped = INDEXES.filter((index) => !GLOBAL_COLLECTIONS.includes(index.collection));
      expect(tenantScoped.length).to.be.greaterThan(0);
      for (const index of tenantScoped) {
        // A TTL index has one field, the expiry date: the exception MongoDB forces; a sparse one
        // holds a marker a few documents of every tenant carry for a while (decision 0798); a
        // wildcard one, paths a tenant names (a compound one needs MongoDB 7.0, decision 0838).
        const wildcard = Object.keys(index.keys)[0]!.endsWith('.$**');
        if (index.expireAfterSeconds !== undefined || index.sparse || wildcard) expect(Object.keys(index.keys), index.name).to.have.length(1);
        else expect(Object.keys(index.keys)[0], index.name).to.equal('tenantId');
      }
    });

    it('creates TTL indexes with their expireAfterSeconds', async () => {
      const db = new MingoDatabaseDouble();
      await ensureIndexes(db);
      const ttl = db.collectionDouble(Collections.guestRateWindows).indexes().find((index) => index.name === 'expires_ttl');
      expect(ttl).to.deep.equal({ name: 'expires_ttl', keys: { expiresAt: 1 }, unique: false, expireAfterSeconds: 0 });
    });

    it('stops with a message naming an index that conflicts with an existing one', async () => {
      const db = new MingoDatabaseDouble();
      await db.collectionDouble(Collections.apiKeys).createIndex({ hash: 1 }, { name: 'hash_unique' });
      const error = await ensureIndexes(db).catch((e: Error) => e);
      expect((error as Error).message).to.equal(
        'Cannot create index hash_unique on api_keys: An existing index has the same name as the requested index: hash_unique',
      );
    });
  });

  describe('when readiness is probed', () => {
    it('answers true when the server answers the ping', async () => {
      expect(await MongoStorage.over(new MingoDatabaseDouble()).ping()).to.equal(true);
    });

    it('answers false when the ping fails or takes too long', async () => {
      const failing = new MingoDatabaseDouble();
      sinon.stub(failing, 'command').rejects(new Error('connection reset'));
      expect(await MongoStorage.over(failing).ping()).to.equal(false);
      const hanging = new MingoDatabaseDouble();
      sinon.stub(hanging, 'command').returns(new Promise<Document>(() => {}));
      const started = Date.now();
      expect(await MongoStorage.over(hanging).ping(30)).to.equal(false);
      expect(Date.now() - started).to.be.lessThan(1000);
    });
  });

  describe('when closed', () => {
    it('closes the client it owns, and nothing when it wraps a database only', async () => {
      const client = { close: sinon.stub().resolves() };
      await MongoStorage.over(new MingoDatabaseDouble(), client).close();
      expect(client.close.calledOnce).to.equal(true);
      await MongoStorage.over(new MingoDatabaseDouble()).close();
    });
  });

  describe('when it connects', () => {
    afterEach(() => sinon.restore());

    it("gives its client the service's write concern: a majority unless the string names another", async () => {
      const seen: Array<WriteConcern | undefined> = [];
      sinon.stub(MongoClient.prototype, 'connect').callsFake(function (this: MongoClient) {
        seen.push(this.writeConcern);
        return Promise.resolve(this);
      });
      for (const uri of ['mongodb://127.0.0.1:9/cms', 'mongodb://127.0.0.1:9/cms?w=1&wtimeoutMS=500']) {
        await (await MongoStorage.connect(uri, 'cms')).close();
      }
      expect(seen.map((concern) => ({ w: concern?.w, wtimeoutMS: concern?.wtimeoutMS }))).to.deep.equal([
        { w: 'majority', wtimeoutMS: 10_000 },
        { w: 1, wtimeoutMS: 500 },
      ]);
    });
  });

  describe('when no server can be reached', () => {
    it('fails within the server-selection timeout without showing the URI', async () => {
      const error = await MongoStorage.connect('mongodb://admin:s3cret-pw@127.0.0.1:9/cms', 'cms_prod', { serverSelectionTimeoutMS: 200 }).catch(
        (e: Error) => e,
      );
      expect((error as Error).message).to.match(/^Cannot connect to MongoDB \(database cms_prod\): /);
      expect((error as Error).message).not.to.contain('s3cret-pw');
    });
  });
});
