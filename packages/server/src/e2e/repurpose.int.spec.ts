/** §2.6 over HTTP: GET and PUT /ai/repurpose/template. */
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { TEMPLATE_REFUSALS } from './invalid-inputs.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

for (const storage of TEST_STORAGES) {
  describe(`GET /ai/repurpose/template (storage: ${storage})`, () => {
    let api: TestService;
    beforeEach(async () => {
      api = await startTestService({}, { storage });
    });
    afterEach(() => api.stop());

    describe('when the tenant reads it for the first time', () => {
      it('creates the template with the service defaults', async () => {
        const res = await api.call('GET', '/ai/repurpose/template');
        expect(res.status).to.equal(200);
        expect(res.body.message).to.equal('Repurpose template loaded');
        const data = res.body.data;
        expect(Object.keys(data)).to.have.members(['tenantId', 'defaults', 'platforms', 'updatedBy', 'createdAt', 'updatedAt']);
        expect(data.tenantId).to.equal('tenant-a');
        expect(data.defaults).to.deep.equal({ language: 'en', tone: 'professional', length: 'medium' });
        expect(data.platforms.linkedin).to.include({ tone: 'professional', length: 'medium', maxHashtags: 5 });
        expect(data.platforms.twitter).to.include({ tone: 'casual', length: 'short', maxHashtags: 3 });
        expect(data.platforms.whatsapp).to.include({ tone: 'friendly', length: 'medium', maxHashtags: 6 });
        expect(data.platforms.instagram).to.include({ tone: 'friendly', length: 'medium', maxHashtags: 8 });
        expect(data.updatedBy).to.equal(null);
        expect(data.createdAt).to.match(ISO_MS);
        expect(data.updatedAt).to.equal(data.createdAt);
      });

      it('stores one template when eight first reads race, and all answer the same one', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, () => api.call('GET', '/ai/repurpose/template')));
        expect(results.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
        expect(new Set(results.map((r) => JSON.stringify(r.body.data))).size).to.equal(1);
      });
    });

    describe('when tenants differ', () => {
      it('gives each tenant its own template', async () => {
        const token = await api.token({ sub: 'ed' });
        await api.call('PUT', '/ai/repurpose/template', {
          headers: { authorization: `Bearer ${token}` },
          body: { platforms: { twitter: { maxHashtags: 1 } } },
        });
        const other = await api.call('GET', '/ai/repurpose/template', { key: TEST_KEYS.b });
        expect(other.body.data.tenantId).to.equal('tenant-b');
        expect(other.body.data.platforms.twitter.maxHashtags).to.equal(3);
      });
    });
  });

  describe(`PUT /ai/repurpose/template (storage: ${storage})`, () => {
    let api: TestService;
    beforeEach(async () => {
      api = await startTestService({ CMS_LANGUAGES: 'en,fr' }, { storage });
    });
    afterEach(() => api.stop());
    const put = (body: unknown, headers: Record<string, string> = { 'x-user-id': 'editor-1' }) =>
      api.call('PUT', '/ai/repurpose/template', { headers, body });

    it('merges a partial update and sets updatedBy and updatedAt', async () => {
      const before = (await api.call('GET', '/ai/repurpose/template')).body.data;
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await put({ defaults: { language: 'fr' }, platforms: { instagram: { tone: 'humorous', ctaTemplate: 'Go!' } } });
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Repurpose template updated');
      const data = res.body.data;
      expect(data.defaults).to.deep.equal({ language: 'fr', tone: 'professional', length: 'medium' });
      expect(data.platforms.instagram).to.include({ tone: 'humorous', ctaTemplate: 'Go!', length: 'medium', maxHashtags: 8 });
      expect(data.platforms.linkedin).to.deep.equal(before.platforms.linkedin);
      expect(data.updatedBy).to.equal('editor-1');
      expect(data.createdAt).to.equal(before.createdAt);
      expect(data.updatedAt > before.updatedAt).to.equal(true);
      expect((await api.call('GET', '/ai/repurpose/template')).body.data).to.deep.equal(data);
    });

    it('reads null as absent at every level of the body (§0): those parts stay as they were', async () => {
      const before = (await api.call('GET', '/ai/repurpose/template')).body.data;
      const bodies = [
        { defaults: null },
        { platforms: null },
        { platforms: { twitter: null } },
        { defaults: { language: null, tone: null, length: null }, platforms: { twitter: { tone: null, length: null, ctaTemplate: null, hashtagStyle: null, maxHashtags: null } } },
      ];
      for (const body of bodies) {
        const res = await put(body);
        expect(res.status, JSON.stringify(body)).to.equal(200);
        expect(res.body.data.defaults, JSON.stringify(body)).to.deep.equal(before.defaults);
        expect(res.body.data.platforms, JSON.stringify(body)).to.deep.equal(before.platforms);
      }
      const mixed = await put({ defaults: { language: 'fr', tone: null }, platforms: { twitter: { maxHashtags: 1, tone: null } } });
      expect(mixed.body.data.defaults).to.deep.equal({ ...before.defaults, language: 'fr' });
      expect(mixed.body.data.platforms.twitter).to.deep.equal({ ...before.platforms.twitter, maxHashtags: 1 });
    });

    it('answers 400 Missing userId without a user', async () => {
      const res = await put({ defaults: { tone: 'casual' } }, {});
      expect(res.status).to.equal(400);
      expect(res.body.message).to.equal('Missing userId');
    });

    const refusals = TEMPLATE_REFUSALS;
    for (const [name, body, message] of refusals) {
      it(`answers 400 for ${name} and changes nothing`, async () => {
        const before = (await api.call('GET', '/ai/repurpose/template')).body.data;
        const res = await put(body);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.contain(message);
        expect((await api.call('GET', '/ai/repurpose/template')).body.data).to.deep.equal(before);
      });
    }
  });
}
