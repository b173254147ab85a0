/** §2.1 over HTTP: PUT and GET /reports/dashboardConfig, with their entity tags (§6.3, decision 0814). */
import { DashboardConfigRepositoryToken, type DashboardConfigRepository } from '@cms/core';
import { expect } from 'chai';
import { holdCalls } from '../testing/held-calls.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { DASHBOARD_REFUSALS } from './invalid-inputs.js';

for (const storage of TEST_STORAGES) {
  describe(`PUT /reports/dashboardConfig (storage: ${storage})`, () => {
    let api: TestService;
    before(async () => {
      api = await startTestService({}, { storage });
    });
    after(() => api.stop());
    const put = (body: unknown, headers: Record<string, string> = { 'x-user-id': 'u1' }, key: string = TEST_KEYS.a) =>
      api.call('PUT', '/reports/dashboardConfig', { headers, body, key });

    describe('when the caller has no user id', () => {
      it('answers 400 Missing userId, before validating the body', async () => {
        for (const headers of [{} as Record<string, string>, { 'x-user-id': '' }, { 'x-user-id': 'has space' }, { 'x-user-id': 'x'.repeat(129) }]) {
          const res = await put('not an object', headers);
          expect(res.status).to.equal(400);
          expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Missing userId', data: null });
        }
      });

      it('answers 400 Missing userId on the GET companion', async () => {
        const res = await api.call('GET', '/reports/dashboardConfig');
        expect(res.body.message).to.equal('Missing userId');
      });
    });

    describe('when the body is acceptable', () => {
      it('stores and returns the normalized configuration, nothing more', async () => {
        const res = await put({
          version: 2,
          templateId: 'ops',
          extra: true,
          slots: [{ type: 'nope', span: 'wide', settings: { range: 'decade', x: 1 }, color: 'red' }, { id: 'b', type: 'topArticles', enabled: false }],
        });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({
          success: true,
          statusCode: 200,
          message: 'Dashboard config updated successfully',
          data: {
            dashboardConfig: {
              version: 2,
              templateId: 'ops',
              slots: [
                { id: 'slot_1', type: 'operationsOverview', enabled: true, span: 'full', settings: { range: '2weeks' } },
                { id: 'b', type: 'topArticles', enabled: false, span: 'half', settings: { range: '2weeks' } },
              ],
            },
          },
        });
        const read = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u1' } });
        expect(read.body.message).to.equal('Dashboard config retrieved successfully');
        expect(read.body.data).to.deep.equal(res.body.data);
      });

      it('drops a __proto__ key at every level like any unknown key, and nothing inherits from it', async () => {
        const rawBody = '{"__proto__": {"polluted": 1}, "templateId": "proto", "slots": [{"__proto__": {"type": "topArticles"}, "id": "p", "settings": {"__proto__": {"range": "1month"}}}]}';
        const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u-proto' }, rawBody });
        expect(res.status).to.equal(200);
        expect(res.body.data.dashboardConfig).to.deep.equal({
          version: 1,
          templateId: 'proto',
          slots: [{ id: 'p', type: 'operationsOverview', enabled: true, span: 'full', settings: { range: '2weeks' } }],
        });
        expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
        // A strict body refuses one by name, as any key it does not describe (decision 0787).
        const strict = await api.call('PUT', '/ai/repurpose/template', { headers: { 'x-user-id': 'u-proto' }, rawBody: '{"__proto__": {"tone": "casual"}}' });
        expect(strict.status).to.equal(400);
        expect(strict.body.message).to.equal('Validation failed: body.__proto__ is not allowed');
      });

      it('drops a __proto__ key also from a body nested thousands of levels deep (was a 500)', async () => {
        const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
        for (const rawBody of [
          `{"__proto__": {}, "templateId": "deep", "z": ${deep}}`,
          `{"templateId": "deep", "slots": [{"id": "d", "settings": {"__proto__": ${deep}}}]}`,
        ]) {
          const res = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'u-deep' }, rawBody });
          expect(res.status, rawBody.slice(0, 60)).to.equal(200);
          expect(res.body.data.dashboardConfig.templateId).to.equal('deep');
        }
      });

      it('gives the default layout for no body, {}, null slots and []', async () => {
        for (const body of [undefined, {}, { slots: null }, { slots: [] }, null]) {
          const res = await api.call('PUT', '/reports/dashboardConfig', {
            headers: { 'x-user-id': 'u2' },
            ...(body === undefined ? {} : { body }),
          });
          expect(res.status).to.equal(200);
          expect(res.body.data.dashboardConfig.slots.map((s: { id: string }) => s.id)).to.deep.equal([
            'slot_1', 'slot_2', 'slot_3', 'slot_4', 'slot_5', 'slot_6', 'slot_7',
          ]);
          expect(res.body.data.dashboardConfig.templateId).to.equal('executive_focus');
        }
      });

      it('keeps each tenant’s record apart for the same user id', async () => {
        await put({ templateId: 'tenant-a-layout' }, { 'x-user-id': 'shared' });
        const other = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'shared' }, key: TEST_KEYS.b });
        expect(other.body.data.dashboardConfig.templateId).to.equal('executive_focus');
        await put({ templateId: 'tenant-b-layout' }, { 'x-user-id': 'shared' }, TEST_KEYS.b);
        const mine = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'shared' } });
        expect(mine.body.data.dashboardConfig.templateId).to.equal('tenant-a-layout');
      });
    });

    describe('when the body has wrong types', () => {
      const cases = DASHBOARD_REFUSALS;
      for (const [name, body, message] of cases) {
        it(`answers 400 for ${name} and keeps the stored record`, async () => {
          await put({ templateId: 'kept' }, { 'x-user-id': 'strict' });
          const res = await put(body, { 'x-user-id': 'strict' });
          expect(res.status).to.equal(400);
          expect(res.body.success).to.equal(false);
          expect(res.body.data).to.equal(null);
          expect(res.body.message).to.equal(message);
          const read = await api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'strict' } });
          expect(read.body.data.dashboardConfig.templateId).to.equal('kept');
        });
      }
    });
  });

  describe(`ETag, If-None-Match and If-Match on /reports/dashboardConfig (storage: ${storage})`, () => {
    let api: TestService;
    before(async () => {
      api = await startTestService({}, { storage });
    });
    after(() => api.stop());
    const as = (userId: string, headers: Record<string, string> = {}) => ({ 'x-user-id': userId, ...headers });
    const get = (userId: string, headers?: Record<string, string>) => api.call('GET', '/reports/dashboardConfig', { headers: as(userId, headers) });
    const put = (userId: string, body: unknown, headers?: Record<string, string>) => api.call('PUT', '/reports/dashboardConfig', { headers: as(userId, headers), body });
    const tagOf = (res: { headers: Headers }) => res.headers.get('etag')!;
    const STRONG_TAG = /^"[A-Za-z0-9_-]{27}"$/;

    it('answers the default layout with one strong ETag, every time and for every user', async () => {
      const tags = [tagOf(await get('tag-default-1')), tagOf(await get('tag-default-1')), tagOf(await get('tag-default-2'))];
      expect(tags[0]).to.match(STRONG_TAG);
      expect(new Set(tags).size).to.equal(1);
      expect(tagOf(await put('tag-default-3', {}))).to.equal(tags[0]);
    });

    it('gives the PUT and the GET of one stored layout the same ETag, and a new one with every change, however close together', async () => {
      const saved = await Promise.all(['a', 'b'].map(async (templateId) => [templateId, await put(`tag-${templateId}`, { templateId })] as const));
      const [first, second] = [await put('tag-moves', { templateId: 'one' }), await put('tag-moves', { templateId: 'two' })];
      expect(tagOf(first)).to.match(STRONG_TAG);
      expect(tagOf(second)).to.not.equal(tagOf(first));
      expect(tagOf(await get('tag-moves'))).to.equal(tagOf(second));
      for (const [templateId, res] of saved) expect(tagOf(await get(`tag-${templateId}`)), templateId).to.equal(tagOf(res));
      expect(new Set(saved.map(([, res]) => tagOf(res))).size).to.equal(2);
    });

    it('answers a GET whose If-None-Match matches 304 without a body (the tag, W/ it, a list holding it, *), else 200', async () => {
      const tag = tagOf(await put('tag-304', { templateId: 'cached' }));
      for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
        const res = await get('tag-304', { 'if-none-match': ifNoneMatch });
        expect(res.status, ifNoneMatch).to.equal(304);
        expect(res.body, ifNoneMatch).to.equal(undefined);
        expect(tagOf(res)).to.equal(tag);
      }
      const defaultTag = tagOf(await get('tag-304-default'));
      expect((await get('tag-304-default', { 'if-none-match': defaultTag })).status).to.equal(304);
      const stale = await get('tag-304', { 'if-none-match': defaultTag });
      expect(stale.status).to.equal(200);
      expect(stale.body.data.dashboardConfig.templateId).to.equal('cached');
    });

    it('answers a PUT whose If-Match does not match 412 Precondition failed, after Missing userId and before the body, changing nothing', async () => {
      const defaultTag = tagOf(await get('tag-412'));
      const tag = tagOf(await put('tag-412', { templateId: 'kept' }));
      const noUser = await api.call('PUT', '/reports/dashboardConfig', { headers: { 'if-match': '"stale"' }, body: { templateId: 'x' } });
      expect(noUser.body.message).to.equal('Missing userId');
      for (const ifMatch of [defaultTag, `W/${tag}`, '"stale"', 'not-a-tag']) {
        for (const send of [() => put('tag-412', { templateId: 'lost' }, { 'if-match': ifMatch }), () => put('tag-412', { version: 'x' }, { 'if-match': ifMatch })]) {
          const res = await send();
          expect(res.status, ifMatch).to.equal(412);
          expect(res.body).to.deep.equal({ success: false, statusCode: 412, message: 'Precondition failed', data: null });
        }
      }
      const unparsable = await api.call('PUT', '/reports/dashboardConfig', { headers: as('tag-412', { 'if-match': '"stale"' }), rawBody: '{"templateId": ' });
      expect(unparsable.status).to.equal(412);
      const read = await get('tag-412');
      expect([read.body.data.dashboardConfig.templateId, tagOf(read)]).to.deep.equal(['kept', tag]);
      const invalid = await put('tag-412', { version: 'x' }, { 'if-match': tag });
      expect([invalid.status, invalid.body.message]).to.deep.equal([400, 'Validation failed: body.version must be a number']);
      const saved = await put('tag-412', { templateId: 'changed' }, { 'if-match': `"other", ${tag}` });
      expect([saved.status, saved.body.data.dashboardConfig.templateId]).to.deep.equal([200, 'changed']);
    });

    it('lets If-Match name the default layout while nothing is stored, and * match the layout stored or not', async () => {
      const defaultTag = tagOf(await get('tag-first'));
      const first = await put('tag-first', { templateId: 'first' }, { 'if-match': defaultTag });
      expect([first.status, first.body.data.dashboardConfig.templateId]).to.deep.equal([200, 'first']);
      expect((await put('tag-first', { templateId: 'again' }, { 'if-match': defaultTag })).status).to.equal(412);
      for (const round of ['nothing stored', 'stored']) expect((await put('tag-star', { templateId: round }, { 'if-match': '*' })).status, round).to.equal(200);
    });

    it('gives one 200 and one 412 to two PUTs racing with the same If-Match, stored layout or default', async () => {
      const configs = api.service.container.get(DashboardConfigRepositoryToken) as DashboardConfigRepository;
      for (const userId of ['tag-race-stored', 'tag-race-default']) {
        if (userId === 'tag-race-stored') await put(userId, { templateId: 'start' });
        const tag = tagOf(await get(userId));
        const release = holdCalls(configs, 'find', 2);
        let results;
        try {
          results = await Promise.all(['one', 'two'].map((templateId) => put(userId, { templateId }, { 'if-match': tag })));
        } finally {
          release();
        }
        expect(results.map((res) => res.status).sort(), userId).to.deep.equal([200, 412]);
        const winner = results.find((res) => res.status === 200)!;
        const read = await get(userId);
        expect([read.body.data.dashboardConfig.templateId, tagOf(read)]).to.deep.equal([winner.body.data.dashboardConfig.templateId, tagOf(winner)]);
      }
    });
  });
}
