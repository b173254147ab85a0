/**
 * §1.5 for every §6 route: another tenant's record behaves exactly like one that does not exist
 * (lists, reads, updates, deletes, exports, disconnects), and stays untouched. Also checks that
 * the OpenAPI document declares the conditional headers each route reads.
 */
import { expect } from 'chai';
import { engagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, TEST_TENANTS, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

for (const storage of TEST_STORAGES) {
  describe(`Content management tenant isolation over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    /** Tenant b's records, and a bearer admin of tenant a. */
    let b: Record<'form' | 'submission' | 'article' | 'comment' | 'category' | 'author', string>;
    let adminA: Record<string, string>;
    before(async () => {
      api = await startTestService({}, { storage });
      const client = engagementClient(api);
      adminA = await client.bearer('admin');
      const adminB = { authorization: `Bearer ${await api.token({ sub: 'admin-b', role: 'admin', tenant: TEST_TENANTS.b })}` };
      const asB = { key: TEST_KEYS.b, headers: adminB };
      const form = await createForm(api, 'tenant-b-form', {}, { key: TEST_KEYS.b });
      const submission = await submitForm(api, form.id, { name: 'b' }, { key: TEST_KEYS.b });
      const created = async (path: string, body: unknown, key: string) => (await api.call('POST', path, { ...asB, body })).body.data[key].id as string;
      const article = await created('/articles/create', { title: 'B' }, 'article');
      b = {
        form: form.id,
        submission: submission.id,
        article,
        comment: await created(`/articles/${article}/comments`, { content: 'B says' }, 'comment'),
        category: await created('/categories/create', { name: 'B' }, 'category'),
        author: await created('/authors/create', { name: 'B' }, 'author'),
      };
    });
    after(() => api.stop());

    it('lists none of tenant b’s records to tenant a', async () => {
      for (const [path, plural] of [
        ['/forms/list', 'forms'],
        ['/articles/list', 'articles'],
        ['/categories/list', 'categories'],
        ['/authors/list', 'authors'],
      ] as const) {
        const ids = (await api.call('GET', `${path}?limit=100`)).body.data[plural].map((record: { id: string }) => record.id);
        expect(ids, path).to.not.include.members(Object.values(b));
      }
    });

    it('answers 404 to every read, update, delete, export and disconnect of tenant b’s records, and changes nothing', async () => {
      const requests: Array<[string, string, unknown?]> = [
        ['GET', `/forms/${b.form}/submissions`],
        ['GET', `/forms/${b.form}/submissions/export`],
        ['GET', '/forms/getBySlug/tenant-b-form'],
        ['GET', `/categories/getById/${b.category}`],
        ['GET', `/articles/${b.article}/comments?status=all`],
        ['PATCH', `/forms/update/${b.form}`, { isActive: false }],
        ['PATCH', `/articles/update/${b.article}`, { title: 'A was here' }],
        ['PATCH', `/categories/update/${b.category}`, { name: 'A was here' }],
        ['PATCH', `/authors/update/${b.author}`, { name: 'A was here' }],
        ['POST', `/forms/submission/${b.submission}/relations/link/disconnect`, { relatedSubmissionId: b.submission }],
        ['DELETE', `/articles/comments/${b.comment}`],
        ['DELETE', `/forms/submission/${b.submission}`],
        ['DELETE', `/articles/delete/${b.article}`],
        ['DELETE', `/categories/delete/${b.category}`],
        ['DELETE', `/forms/delete/${b.form}`],
      ];
      for (const [method, path, body] of requests) {
        const res = await api.call(method, path, { headers: adminA, ...(body === undefined ? {} : { body }) });
        expect(res.status, `${method} ${path}`).to.equal(404);
        expect(res.body.success, `${method} ${path}`).to.equal(false);
      }
      const asB = { key: TEST_KEYS.b };
      expect((await api.call('GET', `/forms/getById/${b.form}`, asB)).body.data.form.isActive).to.equal(true);
      expect((await api.call('GET', `/forms/submission/${b.submission}`, asB)).status).to.equal(200);
      expect((await api.call('GET', `/articles/getById/${b.article}`, asB)).body.data.article.title).to.equal('B');
      expect((await api.call('GET', `/categories/getById/${b.category}`, asB)).body.data.category.name).to.equal('B');
      expect((await api.call('GET', `/authors/getById/${b.author}`, asB)).body.data.author.name).to.equal('B');
    });

    it('gives tenant a ids that say nothing of how many records tenant b creates meanwhile', async () => {
      // Ids have the ObjectId layout (§0): a counter in the last 3 bytes. Shared by every tenant, the
      // gap between two of tenant a's ids counted tenant b's creates exactly.
      const form = await createForm(api, 'id-probe');
      const counterOf = (id: string) => Number.parseInt(id.slice(-6), 16);
      const gapAcross = async (meanwhile: () => Promise<unknown>) => {
        const first = await submitForm(api, form.id, { name: 'probe' });
        await meanwhile();
        const second = await submitForm(api, form.id, { name: 'probe' });
        return (counterOf(second.id) - counterOf(first.id) + 0x1000000) % 0x1000000;
      };
      const adminB = { authorization: `Bearer ${await api.token({ sub: 'admin-b', role: 'admin', tenant: TEST_TENANTS.b })}` };
      const idle = await gapAcross(async () => {});
      const busy = await gapAcross(async () => {
        for (let i = 0; i < 3; i++) {
          await submitForm(api, b.form, { name: 'b' }, { key: TEST_KEYS.b });
          await api.call('POST', '/authors/create', { key: TEST_KEYS.b, headers: adminB, body: { name: `B ${i}` } });
          await api.call('POST', `/articles/${b.article}/comments`, { key: TEST_KEYS.b, headers: adminB, body: { content: 'B again' } });
        }
        await createForm(api, 'tenant-b-more', {}, { key: TEST_KEYS.b });
      });
      expect(busy, 'the gap with tenant b busy').to.equal(idle);
    });

    it('declares If-Match on updates and deletes and If-None-Match on tagged reads, in /cms/openapi.json', async () => {
      const doc = (await api.call('GET', '/openapi.json', { key: null })).body;
      const headersOf = (path: string, method: string) =>
        (doc.paths[path][method].parameters as Array<{ name?: string; in?: string }>).filter((p) => p.in === 'header').map((p) => p.name);
      for (const [path, method] of [
        ['/forms/update/{id}', 'patch'],
        ['/articles/update/{id}', 'patch'],
        ['/categories/update/{id}', 'patch'],
        ['/authors/update/{id}', 'patch'],
        ['/forms/delete/{id}', 'delete'],
        ['/forms/submission/{id}', 'delete'],
        ['/articles/delete/{id}', 'delete'],
        ['/categories/delete/{id}', 'delete'],
        ['/articles/comments/{commentId}', 'delete'],
      ] as const) {
        expect(headersOf(path, method), `${method} ${path}`).to.include('If-Match');
        expect(Object.keys(doc.paths[path][method].responses), `${method} ${path}`).to.include('412');
      }
      for (const path of ['/forms/getById/{id}', '/forms/getBySlug/{slug}', '/categories/getById/{id}', '/authors/getById/{id}', '/forms/submission/{id}']) {
        expect(headersOf(path, 'get'), path).to.include('If-None-Match');
        expect(doc.paths[path].get.responses['200'].headers, path).to.have.property('ETag');
      }
      expect(Object.keys(doc.paths['/forms/{id}/submissions/export'].get.responses['200'].content)).to.have.members(['text/csv', 'application/x-ndjson']);
    });
  });
}
