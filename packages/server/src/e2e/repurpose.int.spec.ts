/** §2.6 over HTTP: GET and PUT /ai/repurpose/template, with their entity tags (§6.3, decision 0814). */
import { RepurposeTemplateRepositoryToken, type RepurposeTemplateRepository } from '@cms/core';
import { expect } from 'chai';
import { holdCalls } from '../testing/held-calls.js';
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

  describe(`ETag, If-None-Match and If-Match on /ai/repurpose/template (storage: ${storage})`, () => {
    let api: TestService;
    beforeEach(async () => {
      api = await startTestService({ CMS_LANGUAGES: 'en,fr' }, { storage });
    });
    afterEach(() => api.stop());
    const editor = (headers: Record<string, string> = {}) => ({ 'x-user-id': 'editor-1', ...headers });
    const get = (headers?: Record<string, string>) => api.call('GET', '/ai/repurpose/template', { headers });
    const put = (body: unknown, headers?: Record<string, string>) => api.call('PUT', '/ai/repurpose/template', { headers: editor(headers), body });
    const tagOf = (res: { headers: Headers }) => res.headers.get('etag')!;

    it('gives the GET and the PUT of one template the same strong ETag, and a new one with every change, however close together', async () => {
      const [first, again] = [await get(), await get()];
      expect(tagOf(first)).to.match(/^"[A-Za-z0-9_-]{27}"$/);
      expect(tagOf(again)).to.equal(tagOf(first));
      const tags = [tagOf(first)];
      for (const tone of ['casual', 'formal', 'friendly']) {
        const res = await put({ defaults: { tone } });
        expect(tagOf(await get()), tone).to.equal(tagOf(res));
        tags.push(tagOf(res));
      }
      expect(new Set(tags).size).to.equal(4);
    });

    it('answers a GET whose If-None-Match matches 304 without a body (the tag, W/ it, a list holding it, *), else 200', async () => {
      const tag = tagOf(await get());
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        const res = await get({ 'if-none-match': ifNoneMatch });
        expect([res.status, res.body, tagOf(res)], ifNoneMatch).to.deep.equal([304, undefined, tag]);
      }
      await put({ defaults: { tone: 'casual' } });
      const changed = await get({ 'if-none-match': tag });
      expect([changed.status, changed.body.data.defaults.tone]).to.deep.equal([200, 'casual']);
    });

    it('answers a PUT whose If-Match does not match 412 Precondition failed, after Missing userId and before the body, changing nothing', async () => {
      const read = await get();
      const tag = tagOf(read);
      await put({ defaults: { tone: 'casual' } });
      const noUser = await api.call('PUT', '/ai/repurpose/template', { headers: { 'if-match': '"stale"' }, body: { defaults: { tone: 'formal' } } });
      expect(noUser.body.message).to.equal('Missing userId');
      const current = await get();
      for (const ifMatch of [tag, `W/${tagOf(current)}`, '"stale"', 'not-a-tag']) {
        for (const body of [{ defaults: { tone: 'formal' } }, { defaults: { tone: 'angry' } }, { nope: 1 }]) {
          const res = await put(body, { 'if-match': ifMatch });
          expect(res.body, `${ifMatch} ${JSON.stringify(body)}`).to.deep.equal({ success: false, statusCode: 412, message: 'Precondition failed', data: null });
        }
      }
      const unparsable = await api.call('PUT', '/ai/repurpose/template', { headers: editor({ 'if-match': tag }), rawBody: '{"defaults": ' });
      expect(unparsable.status).to.equal(412);
      const after = await get();
      expect([after.body.data, tagOf(after)]).to.deep.equal([current.body.data, tagOf(current)]);
      const invalid = await put({ defaults: { tone: 'angry' } }, { 'if-match': tagOf(current) });
      expect(invalid.status).to.equal(400);
      const saved = await put({ defaults: { tone: 'formal' } }, { 'if-match': `"other", ${tagOf(current)}` });
      expect([saved.status, saved.body.data.defaults.tone]).to.deep.equal([200, 'formal']);
    });

    it('lets * match the template, also before its first read; a named tag matches nothing before it', async () => {
      expect((await put({ defaults: { tone: 'casual' } }, { 'if-match': '"before-any-read"' })).status).to.equal(412);
      const starred = await put({ defaults: { tone: 'casual' } }, { 'if-match': '*' });
      expect([starred.status, starred.body.data.defaults.tone]).to.deep.equal([200, 'casual']);
      expect((await put({ defaults: { tone: 'formal' } }, { 'if-match': '*' })).status).to.equal(200);
    });

    it('gives one 200 and one 412 to two PUTs racing with the same If-Match', async () => {
      const tag = tagOf(await get());
      const templates = api.service.container.get(RepurposeTemplateRepositoryToken) as RepurposeTemplateRepository;
      const release = holdCalls(templates, 'find', 2);
      let results;
      try {
        results = await Promise.all(['casual', 'formal'].map((tone) => put({ defaults: { tone } }, { 'if-match': tag })));
      } finally {
        release();
      }
      expect(results.map((res) => res.status).sort()).to.deep.equal([200, 412]);
      const winner = results.find((res) => res.status === 200)!;
      const read = await get();
      expect([read.body.data, tagOf(read)]).to.deep.equal([winner.body.data, tagOf(winner)]);
    });
  });
}
