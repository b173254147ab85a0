/** §6.1 over HTTP: every list route, its pages and cursors, filters, order of checks and tenant isolation. */
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { pageThrough } from '../testing/page-through.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

const UNKNOWN = '0123456789abcdef01234567';

for (const storage of TEST_STORAGES) {
  describe(`Lists over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    describe('GET /forms/list', () => {
      it('pages through the tenant’s forms newest first, each once, with the singular read’s shape', async () => {
        const created: Array<{ id: string }> = [];
        for (let i = 0; i < 5; i += 1) created.push(await createForm(api, `list-${storage}-${i}`, i % 2 ? { isActive: false } : {}));
        const ids = await pageThrough(api, '/forms/list', 'forms', 2);
        const mine = ids.filter((id) => created.some((form) => form.id === id));
        expect(mine).to.deep.equal(created.map((form) => form.id).reverse());
        const first = await api.call('GET', '/forms/list?limit=1');
        expect(first.body).to.include({ success: true, statusCode: 200, message: 'Forms retrieved successfully' });
        const single = await api.call('GET', `/forms/getById/${first.body.data.forms[0].id}`);
        expect(first.body.data.forms[0]).to.deep.equal(single.body.data.form);
      });

      it('filters by isActive and visibility', async () => {
        const internal = await createForm(api, `list-internal-${storage}`, { visibility: 'internal', isActive: false });
        const res = await api.call('GET', '/forms/list?isActive=false&visibility=internal&limit=100');
        expect(res.body.data.forms.map((form: { id: string }) => form.id)).to.include(internal.id);
        for (const form of res.body.data.forms) expect(form).to.include({ isActive: false, visibility: 'internal' });
      });

      it('refuses a cursor of other filters, of another list or changed, with 400 Invalid cursor', async () => {
        await createForm(api, `list-cursor-${storage}-a`);
        await createForm(api, `list-cursor-${storage}-b`);
        const page = await api.call('GET', '/forms/list?limit=1');
        const cursor = encodeURIComponent(page.body.data.nextCursor);
        for (const path of [`/forms/list?isActive=true&cursor=${cursor}`, `/authors/list?cursor=${cursor}`, `/forms/list?cursor=x${cursor}`, `/forms/list?cursor=${cursor}&cursor=${cursor}`]) {
          const res = await api.call('GET', path);
          expect(res.status, path).to.equal(400);
          expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid cursor', data: null });
        }
        const otherTenant = await api.call('GET', `/forms/list?cursor=${cursor}`, { key: TEST_KEYS.b });
        expect(otherTenant.body.message).to.equal('Invalid cursor');
      });

      const invalid: Array<[string, string]> = [
        ['limit=0', 'Validation failed: query.limit must be an integer from 1 to 100'],
        ['limit=101', 'Validation failed: query.limit must be an integer from 1 to 100'],
        ['limit=2.5', 'Validation failed: query.limit must be an integer from 1 to 100'],
        ['isActive=yes', 'Validation failed: query.isActive must be one of true, false'],
        ['sort=asc', 'Validation failed: query.sort is not allowed'],
        ['limit=1&limit=2', 'Validation failed: query.limit must be given only once'],
        ['isActive=true&isActive=true', 'Validation failed: query.isActive must be given only once'],
      ];
      for (const [query, message] of invalid) {
        it(`answers 400 for ${query}`, async () => {
          const res = await api.call('GET', `/forms/list?${query}`);
          expect(res.status).to.equal(400);
          expect(res.body.message).to.equal(message);
        });
      }

      it('answers 401 without an API key, before the query is checked', async () => {
        const res = await api.call('GET', '/forms/list?limit=0', { key: null });
        expect(res.status).to.equal(401);
      });
    });

    describe('GET /forms/{id}/submissions', () => {
      it('pages through a form’s submissions without skipping or repeating any while others are added (after the first page) and removed', async () => {
        const form = await createForm(api, `subs-${storage}`);
        const before: Array<{ id: string }> = [];
        for (let i = 0; i < 7; i += 1) before.push(await submitForm(api, form.id, { name: `n${i}` }));
        let added = 0;
        const editor = await client.bearer('editor');
        const ids = await pageThrough(api, `/forms/${form.id}/submissions`, 'submissions', 3, {
          between: async () => {
            added += 1;
            await submitForm(api, form.id, { name: `late${added}` });
            // Between the first and second page, erase the oldest one, not seen yet.
            if (added === 1) expect((await api.call('DELETE', `/forms/submission/${before[0]!.id}`, { headers: editor })).status).to.equal(200);
          },
        });
        const stillThere = before.slice(1).map((submission) => submission.id).reverse();
        expect(ids).to.deep.equal(stillThere);
        expect(new Set(ids).size).to.equal(ids.length);
      });

      it('checks the form first: 400 Invalid form id, 404 Form not found (also for another tenant’s form)', async () => {
        const form = await createForm(api, `subs-other-${storage}`, {}, { key: TEST_KEYS.b });
        expect((await api.call('GET', '/forms/nope/submissions?limit=0')).body.message).to.equal('Invalid form id');
        expect((await api.call('GET', `/forms/${UNKNOWN}/submissions`)).body.message).to.equal('Form not found');
        for (const query of ['limit=500', 'foo=1', 'cursor=x&cursor=y']) {
          expect((await api.call('GET', `/forms/${UNKNOWN}/submissions?${query}`)).body.message, query).to.equal('Form not found');
        }
        expect((await api.call('GET', `/forms/${form.id}/submissions?limit=500`, { key: TEST_KEYS.b })).body.message).to.equal(
          'Validation failed: query.limit must be an integer from 1 to 100',
        );
        const foreign = await api.call('GET', `/forms/${form.id}/submissions`);
        expect(foreign.status).to.equal(404);
        expect(foreign.body.message).to.equal('Form not found');
      });
    });

    describe('GET /articles/list, /categories/list, /authors/list', () => {
      it('filter by author, category (or sub-category) and parent', async () => {
        const editor = await client.bearer('editor');
        const author = (await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Ada' } })).body.data.author;
        const top = await client.category({ name: 'Top' });
        const sub = await client.category({ name: 'Sub', parentId: top.id });
        const inSub = await client.article({ categoryId: top.id, subCategoryId: sub.id, authorId: author.id });
        const inTop = await client.article({ categoryId: top.id });
        const ids = async (path: string) => (await api.call('GET', path)).body.data;
        expect((await ids(`/articles/list?categoryId=${sub.id}`)).articles.map((a: { id: string }) => a.id)).to.deep.equal([inSub.id]);
        expect((await ids(`/articles/list?categoryId=${top.id}`)).articles.map((a: { id: string }) => a.id)).to.deep.equal([inTop.id, inSub.id]);
        expect((await ids(`/articles/list?authorId=${author.id}`)).articles.map((a: { id: string }) => a.id)).to.deep.equal([inSub.id]);
        expect((await ids(`/categories/list?parentId=${top.id}`)).categories.map((c: { id: string }) => c.id)).to.deep.equal([sub.id]);
        const roots = (await ids('/categories/list?parentId=root&limit=100')).categories;
        expect(roots.map((c: { id: string }) => c.id)).to.include(top.id).and.not.include(sub.id);
        const authors = await api.call('GET', '/authors/list');
        expect(authors.body.message).to.equal('Authors retrieved successfully');
        expect(authors.body.data.authors[0]).to.deep.equal(author);
      });

      it('answer 400 for a malformed id filter, and show nothing of another tenant', async () => {
        expect((await api.call('GET', '/articles/list?authorId=nope')).body.message).to.equal(
          'Validation failed: query.authorId must be an id of 24 hexadecimal characters',
        );
        expect((await api.call('GET', '/categories/list?parentId=top')).status).to.equal(400);
        await client.article({});
        const other = await api.call('GET', '/articles/list', { key: TEST_KEYS.b });
        expect(other.body.data).to.deep.equal({ articles: [], nextCursor: null });
      });
    });

    describe('GET /articles/{id}/comments', () => {
      it('lists approved comments by default; pending and all need a bearer admin or editor', async () => {
        const article = await client.article({});
        const approved = await client.comment(article.id);
        const pending = await client.comment(article.id, { approve: false });
        const list = async (query: string, headers: Record<string, string> = {}) => api.call('GET', `/articles/${article.id}/comments${query}`, { headers });
        expect((await list('')).body.data.comments.map((c: { id: string }) => c.id)).to.deep.equal([approved.id]);
        expect((await list('')).body.message).to.equal('Comments retrieved successfully');
        expect((await list('?status=pending', await client.bearer('editor'))).body.data.comments.map((c: { id: string }) => c.id)).to.deep.equal([pending.id]);
        expect((await list('?status=all', await client.bearer('admin'))).body.data.comments).to.have.length(2);
        for (const headers of [{}, { 'x-user-id': 'u1' }, await client.bearer('author')]) {
          const res = await list('?status=all', headers);
          expect(res.status).to.equal(403);
          expect(res.body.message).to.equal('Forbidden');
        }
      });

      it('checks the article first: 400 Invalid article id, then 404 Article not found before the role', async () => {
        expect((await api.call('GET', '/articles/nope/comments?status=pending')).body.message).to.equal('Invalid article id');
        const missing = await api.call('GET', `/articles/${UNKNOWN}/comments?status=pending`);
        expect(missing.status).to.equal(404);
        expect(missing.body.message).to.equal('Article not found');
        for (const query of ['status=bogus', 'limit=0', 'foo=1']) {
          expect((await api.call('GET', `/articles/${UNKNOWN}/comments?${query}`)).body.message, query).to.equal('Article not found');
        }
        const article = await client.article({});
        expect((await api.call('GET', `/articles/${article.id}/comments?status=bogus`)).body.message).to.equal(
          'Validation failed: query.status must be one of approved, pending, all',
        );
      });
    });
  });
}
