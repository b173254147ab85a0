/**
 * How the repositories lay out documents (inspected on the collection double): ids as ObjectId
 * `_id`, tenant ids as strings, key hashes only, nothing of the domain's `id` duplicated.
 */
import { expect } from 'chai';
import { AuthenticateApiKey, ManageTenants, ManualClock, defaultDashboardConfig, defaultRepurposeTemplate } from '@cms/core';
import { hashApiKey } from '@cms/core/internal';
import { keyFragmentsIn } from '@cms/core/testing';
import { ObjectId } from 'mongodb';
import { Collections } from './storage/mongo-collections.js';
import { MongoStorage } from './storage/mongo-storage.js';
import { useDocumentLayout } from './testing/document-layout.js';

describe('Mongo document layout', () => {
  const { db, repos, stored } = useDocumentLayout();

  describe('when tenants and keys are stored', () => {
    it('uses the tenant id as _id and stores keys by ObjectId and hash only', async () => {
      const manage = new ManageTenants(repos().tenants, repos().apiKeys, new ManualClock('2026-01-02T03:04:05.678Z'));
      await manage.createTenant('acme', 'Acme');
      const issued = await manage.issueKey('acme', 'web');
      const [tenant] = stored(Collections.tenants);
      expect(tenant).to.deep.equal({ _id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: [], createdAt: new Date('2026-01-02T03:04:05.678Z') });
      const [key] = stored(Collections.apiKeys);
      expect(key?._id).to.be.instanceOf(ObjectId);
      expect(key?._id.toHexString()).to.equal(issued.record.id);
      expect(Object.keys(key!)).to.deep.equal(['_id', 'tenantId', 'name', 'hash', 'createdAt', 'revokedAt']);
      expect(keyFragmentsIn(JSON.stringify(key), issued.key)).to.deep.equal([]);
    });

    it('stores nothing of a configured key of 16 characters in clear', async () => {
      const manage = new ManageTenants(repos().tenants, repos().apiKeys, new ManualClock('2026-01-02T03:04:05.678Z'));
      await manage.ensureTenant('acme');
      const key = 'Kq7-Zw!Rm2Xv9LpT';
      await manage.registerKey('acme', key);
      expect(keyFragmentsIn(JSON.stringify(stored(Collections.apiKeys)), key)).to.deep.equal([]);
    });
  });

  describe('when a key was stored by a version that kept its first characters in clear', () => {
    const key = 'cms_Qx7Lr2Mv9Kp4Wz8Ns3Ty6Hb1Jd5Gf0Ce';
    const _id = new ObjectId('65f1c0ffee0123456789abcd');
    const fields = { tenantId: 'acme', name: 'web', hash: hashApiKey(key), createdAt: new Date('2025-06-07T08:09:10.111Z'), revokedAt: null };
    beforeEach(() => db().collectionDouble(Collections.apiKeys).insertOne({ _id, ...fields, prefix: key.slice(0, 10) }));

    it('authenticates it by its hash and never reads the old prefix', async () => {
      expect(await new AuthenticateApiKey(repos().apiKeys).execute(key)).to.deep.equal({ tenantId: 'acme', keyId: _id.toHexString() });
      expect(await repos().apiKeys.listByTenant('acme')).to.deep.equal([{ id: _id.toHexString(), ...fields }]);
    });

    it('loses the old prefix when retired fields are removed, and keeps the rest', async () => {
      const storage = MongoStorage.over(db());
      await storage.removeRetiredFields();
      await storage.removeRetiredFields();
      expect(stored(Collections.apiKeys)).to.deep.equal([{ _id, ...fields }]);
      expect(keyFragmentsIn(JSON.stringify(stored(Collections.apiKeys)), key)).to.deep.equal([]);
      expect(await new AuthenticateApiKey(repos().apiKeys).execute(key)).to.deep.include({ tenantId: 'acme' });
    });
  });

  describe('when tenant-scoped records are stored', () => {
    it('gives each an ObjectId _id and a string tenantId, and only the domain fields', async () => {
      const at = new Date('2026-01-02T03:04:05.678Z');
      await repos().dashboardConfigs.upsert({ tenantId: 'acme', userId: 'u1', config: defaultDashboardConfig(), updatedBy: 'u1', updatedAt: at });
      await repos().repurposeTemplates.findOrCreate(defaultRepurposeTemplate('acme', at));
      const [config] = stored(Collections.dashboardConfigs);
      const [template] = stored(Collections.repurposeTemplates);
      expect(config?._id).to.be.instanceOf(ObjectId);
      expect(Object.keys(config!).sort()).to.deep.equal(['_id', 'config', 'tenantId', 'updatedAt', 'updatedBy', 'userId']);
      expect(template?._id).to.be.instanceOf(ObjectId);
      expect(Object.keys(template!).sort()).to.deep.equal(['_id', 'createdAt', 'defaults', 'platforms', 'tenantId', 'updatedAt', 'updatedBy']);
    });

    it('stores the ids an outbox message refers to as ObjectIds', async () => {
      const at = new Date('2026-01-02T03:04:05.678Z');
      const message = { formId: 'AAAAAAAAAAAAAAAAAAAAAAAA', formSlug: 's', formTitle: { en: 'T' }, submissionId: 'bbbbbbbbbbbbbbbbbbbbbbbb', values: {}, submittedBy: null, submittedAt: at };
      await repos().notificationOutbox.enqueue([{ tenantId: 'acme', channel: 'push', audience: 'admin', recipients: [], message }], at);
      const [job] = stored(Collections.notificationOutbox);
      expect(job?.message.formId).to.be.instanceOf(ObjectId);
      expect(job?.message.formId.toHexString()).to.equal('aaaaaaaaaaaaaaaaaaaaaaaa');
      const [listed] = await repos().notificationOutbox.listByTenant('acme');
      expect(listed?.message.formId).to.equal('aaaaaaaaaaaaaaaaaaaaaaaa');
    });
  });

  describe('when a save under If-Match is conditioned on the layout or template read', () => {
    /** The filter of every findAndModify sent while `act` runs. */
    const filtersOf = async (act: () => Promise<unknown>) => {
      const filters: Record<string, unknown>[] = [];
      const stop = db().onCommand((event) => {
        if (event.commandName === 'findAndModify') filters.push(event.command['filter'] as Record<string, unknown>);
      });
      try {
        await act();
      } finally {
        stop();
      }
      return filters;
    };
    /** A filter member that names an embedded document whole: a server compares it in stored order. */
    const wholeDocuments = (filter: Record<string, unknown>) =>
      Object.entries(filter).filter(([key, value]) => typeof value === 'object' && value !== null && !(value instanceof Date) && !('$size' in value)).map(([key]) => key);

    it('compares them member by member, never as whole documents whose stored order a server would compare', async () => {
      const template = await repos().repurposeTemplates.findOrCreate(defaultRepurposeTemplate('acme', new Date('2026-01-02T03:04:05.678Z')));
      const audit = { updatedBy: 'u1', updatedAt: new Date('2026-01-02T03:04:06.000Z') };
      const [templateFilter] = await filtersOf(() => repos().repurposeTemplates.applyChanges('acme', [{ path: ['defaults', 'tone'], value: 'casual' }], audit, template));
      expect(templateFilter).to.include({ tenantId: 'acme', 'defaults.tone': template.defaults.tone });
      expect(wholeDocuments(templateFilter!)).to.deep.equal([]);

      const layout = { tenantId: 'acme', userId: 'u1', config: defaultDashboardConfig(), updatedBy: 'u1', updatedAt: audit.updatedAt };
      expect(await repos().dashboardConfigs.replaceIf(layout, null)).to.not.equal(null);
      const [layoutFilter] = await filtersOf(() => repos().dashboardConfigs.replaceIf({ ...layout, updatedAt: new Date() }, layout));
      expect(layoutFilter).to.include({ tenantId: 'acme', userId: 'u1', 'config.version': layout.config.version });
      expect(wholeDocuments(layoutFilter!)).to.deep.equal([]);
    });

    it('matches the template and layout it read, also when they are stored with their members in another order', async () => {
      const template = defaultRepurposeTemplate('acme', new Date('2026-01-02T03:04:05.678Z'));
      const reversed = <T extends object>(value: T): T => Object.fromEntries(Object.entries(value).reverse()) as T;
      const platforms = Object.fromEntries(Object.entries(template.platforms).map(([name, platform]) => [name, reversed(platform)]));
      await db().collectionDouble(Collections.repurposeTemplates).insertOne({ ...reversed({ ...template, defaults: reversed(template.defaults), platforms }) });
      const read = await repos().repurposeTemplates.find('acme');
      const audit = { updatedBy: 'u1', updatedAt: new Date('2026-01-02T03:04:06.000Z') };
      const changed = await repos().repurposeTemplates.applyChanges('acme', [{ path: ['defaults', 'tone'], value: 'casual' }], audit, read!);
      expect(changed?.defaults.tone).to.equal('casual');

      const config = defaultDashboardConfig();
      const slots = config.slots.map((slot) => reversed({ ...slot, settings: reversed(slot.settings) }));
      await db().collectionDouble(Collections.dashboardConfigs).insertOne({ tenantId: 'acme', userId: 'u1', config: reversed({ ...config, slots }), updatedBy: 'u1', updatedAt: audit.updatedAt });
      const stored = await repos().dashboardConfigs.find('acme', 'u1');
      expect(await repos().dashboardConfigs.replaceIf({ ...stored!, updatedAt: new Date() }, stored)).to.not.equal(null);
    });
  });

  describe('when a template change names a path that is not a plain field', () => {
    it('refuses it as a bug rather than writing operators into the update', async () => {
      await repos().repurposeTemplates.findOrCreate(defaultRepurposeTemplate('acme', new Date()));
      const audit = { updatedBy: 'u1', updatedAt: new Date() };
      for (const path of [['platforms', '$where'], ['platforms.linkedin', 'tone'], ['defaults', '']] as const) {
        const error = await repos().repurposeTemplates.applyChanges('acme', [{ path: [...path], value: 'x' }], audit).catch((e: Error) => e);
        expect((error as Error).message).to.match(/^template change path has an invalid segment/);
      }
    });
  });
});
