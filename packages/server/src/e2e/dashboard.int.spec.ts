/** §2.1 over HTTP: PUT and GET /reports/dashboardConfig. */
import { expect } from 'chai';
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
}
