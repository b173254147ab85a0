/** The service on MongoDB storage: wiring, readiness and start-up, over the collection double. */
import { expect } from 'chai';
import sinon from 'sinon';
import { Collections } from '@cms/adapter-mongo';
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { hashApiKey } from '@cms/core/internal';
import { ObjectId } from 'mongodb';
import { loadConfig } from '../config/service-config.js';
import { startService } from '../service.js';
import { CapturingLogger, startTestService, TEST_KEYS } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

describe('The service on MongoDB storage', () => {
  describe('when started over a database', () => {
    it('keeps tenants, hashed keys and records in its collections, with indexes ensured', async () => {
      const db = new MingoDatabaseDouble();
      const api = await startTestService({}, { mongoDatabase: db });
      try {
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' }, body: { templateId: 'ops' } });
        expect(res.status).to.equal(200);
        expect(db.collectionDouble(Collections.tenants).documents().map((t) => t._id)).to.deep.equal(['tenant-a', 'tenant-b']);
        expect(db.collectionDouble(Collections.apiKeys).documents().map((k) => k.hash)).to.deep.equal([hashApiKey(TEST_KEYS.a), hashApiKey(TEST_KEYS.b)]);
        const [config] = db.collectionDouble(Collections.dashboardConfigs).documents();
        expect(config).to.deep.include({ tenantId: 'tenant-a', userId: 'u1', updatedBy: 'u1' });
        expect(config?.config.templateId).to.equal('ops');
        expect(db.collectionDouble(Collections.dashboardConfigs).indexes().map((i) => i.name)).to.deep.equal(['_id_', 'tenant_user_unique']);
      } finally {
        await api.stop();
      }
    });
  });

  describe('when keys stored by a version before decision 0789 hold their first characters in clear', () => {
    it('removes those characters at start-up and still accepts the keys', async () => {
      const db = new MingoDatabaseDouble();
      const key = 'cms_Qx7Lr2Mv9Kp4Wz8Ns3Ty6Hb1Jd5Gf0Ce';
      const legacy = { _id: new ObjectId(), tenantId: 'tenant-a', name: 'old', hash: hashApiKey(key), createdAt: new Date('2025-06-07T08:09:10.111Z'), revokedAt: null };
      await db.collectionDouble(Collections.apiKeys).insertOne({ ...legacy, prefix: key.slice(0, 10) });
      const api = await startTestService({}, { mongoDatabase: db });
      try {
        const stored = db.collectionDouble(Collections.apiKeys).documents();
        expect(stored.filter((document) => 'prefix' in document)).to.deep.equal([]);
        expect(stored.find((document) => document.hash === legacy.hash)).to.deep.equal(legacy);
        const res = await api.call('GET', '/ai/repurpose/template', { key });
        expect(res.status).to.equal(200);
        expect(res.body.data.tenantId).to.equal('tenant-a');
      } finally {
        await api.stop();
      }
    });
  });

  describe('when forms are created, submitted and connected', () => {
    it('stores them in forms and form_submissions, with ObjectId references and the slug index', async () => {
      const db = new MingoDatabaseDouble();
      const api = await startTestService({}, { mongoDatabase: db });
      try {
        const company = await createForm(api, 'company');
        const person = await createForm(api, 'person', {
          sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'N' } }, { name: 'clients', type: 'relation', label: { en: 'C' }, relation: { formId: company.id, multiple: true } }] }],
        });
        const acme = await submitForm(api, company.id, { name: 'Acme' });
        const ada = await submitForm(api, person.id, { name: 'Ada' });
        const res = await api.call('POST', `/forms/submission/${ada.id}/relations/clients/connect`, { body: { relatedSubmissionId: acme.id } });
        expect(res.status).to.equal(200);
        const forms = db.collectionDouble(Collections.forms);
        expect(forms.indexes().map((i) => i.name)).to.include.members(['_id_', 'tenant_slug_unique', 'tenant_created']);
        const stored = forms.documents().find((form) => form.slug === 'person');
        expect(stored?._id.toHexString()).to.equal(person.id);
        // ObjectIds, not strings: a string has no toHexString.
        expect(stored?.sections[0].fields[1].relation.formId.toHexString()).to.equal(company.id);
        const submission = db.collectionDouble(Collections.formSubmissions).documents().find((s) => s._id.toHexString() === ada.id);
        expect(submission).to.deep.include({ tenantId: 'tenant-a', values: { name: 'Ada' } });
        expect(submission?.formId.toHexString()).to.equal(person.id);
        expect(submission?.relations.clients.map((id: { toHexString(): string }) => id.toHexString())).to.deep.equal([acme.id]);
      } finally {
        await api.stop();
      }
    });
  });

  describe('when readiness is probed', () => {
    it('answers 200 while the server answers its ping and 503 once it does not', async () => {
      const db = new MingoDatabaseDouble();
      const api = await startTestService({}, { mongoDatabase: db });
      try {
        const ready = await api.call('GET', `${api.service.url}/readyz`, { key: null });
        expect(ready.status).to.equal(200);
        expect(ready.body.data).to.deep.equal({ status: 'ready' });
        sinon.stub(db, 'command').rejects(new Error('not primary'));
        const down = await api.call('GET', `${api.service.url}/readyz`, { key: null });
        expect(down.status).to.equal(503);
        expect(down.body).to.deep.equal({ success: false, statusCode: 503, message: 'Storage unreachable', data: null });
      } finally {
        await api.stop();
      }
    });
  });

  describe('when MONGODB_URI names a server that does not answer', () => {
    it('refuses to start, saying which database it could not reach and not showing the URI', async () => {
      const config = loadConfig({
        PORT: '0',
        MONGODB_URI: 'mongodb://ops:pa55word@127.0.0.1:9/cms_prod?serverSelectionTimeoutMS=200',
        CMS_REQUEST_LOG: 'off',
      });
      const error = await startService(config, { logger: new CapturingLogger() }).catch((e: Error) => e);
      expect((error as Error).message).to.match(/^Cannot connect to MongoDB \(database cms_prod\): /);
      expect((error as Error).message).not.to.contain('pa55word');
    });
  });
});
