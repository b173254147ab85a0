/** §6.2 over HTTP (form by slug, category by id) and the ETag / If-None-Match of single-record answers (§6.3). */
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

const UNKNOWN = '0123456789abcdef01234567';
const STRONG_TAG = /^"[A-Za-z0-9_-]+"$/;

for (const storage of TEST_STORAGES) {
  describe(`Single reads and entity tags over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    describe('GET /forms/getBySlug/{slug}', () => {
      it('answers the same record and tag as the read by id', async () => {
        const form = await createForm(api, `slug-${storage}`);
        const bySlug = await api.call('GET', `/forms/getBySlug/slug-${storage}`);
        const byId = await api.call('GET', `/forms/getById/${form.id}`);
        expect(bySlug.status).to.equal(200);
        expect(bySlug.body).to.include({ message: 'Form retrieved successfully' });
        expect(bySlug.body.data.form).to.deep.equal(byId.body.data.form);
        expect(bySlug.headers.get('etag')).to.match(STRONG_TAG).and.equal(byId.headers.get('etag'));
      });

      it('answers 404 Form not found for a slug that cannot exist, an unknown one and another tenant’s', async () => {
        await createForm(api, `slug-b-${storage}`, {}, { key: TEST_KEYS.b });
        for (const slug of ['Not_A_Slug', 'x'.repeat(101), 'unknown-slug', `slug-b-${storage}`]) {
          const res = await api.call('GET', `/forms/getBySlug/${slug}`);
          expect(res.status, slug).to.equal(404);
          expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Form not found', data: null });
        }
      });
    });

    describe('GET /categories/getById/{id}', () => {
      it('answers 200, 400 Invalid category id, 404 Category not found (also for another tenant’s)', async () => {
        const category = await client.category({ name: 'Read me' });
        const res = await api.call('GET', `/categories/getById/${category.id.toUpperCase()}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ message: 'Category retrieved successfully' });
        expect(res.body.data.category).to.include({ id: category.id, name: 'Read me', parentId: null, reactionsEnabled: true });
        expect((await api.call('GET', '/categories/getById/nope')).body.message).to.equal('Invalid category id');
        expect((await api.call('GET', `/categories/getById/${UNKNOWN}`)).body.message).to.equal('Category not found');
        const foreign = await api.call('GET', `/categories/getById/${category.id}`, { key: TEST_KEYS.b });
        expect(foreign.status).to.equal(404);
      });
    });

    describe('ETag and If-None-Match', () => {
      it('answers a create and the reads with the same tag, and 304 without a body when it matches', async () => {
        const created = await api.call('POST', '/authors/create', { headers: await client.bearer('editor'), body: { name: 'Tagged' } });
        const tag = created.headers.get('etag');
        expect(tag).to.match(STRONG_TAG);
        const read = await api.call('GET', `/authors/getById/${created.body.data.author.id}`);
        expect(read.headers.get('etag')).to.equal(tag);
        for (const header of [tag!, `W/${tag}`, `"other", ${tag}`, '*']) {
          const again = await api.call('GET', `/authors/getById/${created.body.data.author.id}`, { headers: { 'if-none-match': header } });
          expect(again.status, header).to.equal(304);
          expect(again.body, header).to.equal(undefined);
          expect(again.headers.get('etag')).to.equal(tag);
        }
        const stale = await api.call('GET', `/authors/getById/${created.body.data.author.id}`, { headers: { 'if-none-match': '"stale"' } });
        expect(stale.status).to.equal(200);
      });

      it('changes the tag when a record changes through another operation (a relation connect, a reaction)', async () => {
        const target = await createForm(api, `tag-target-${storage}`);
        const form = await createForm(api, `tag-source-${storage}`, {
          sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'N' } }, { name: 'link', type: 'relation', label: { en: 'L' }, relation: { formId: target.id } }] }],
        });
        const related = await submitForm(api, target.id, { name: 'x' });
        const submission = await submitForm(api, form.id, { name: 'y' });
        const before = (await api.call('GET', `/forms/submission/${submission.id}`)).headers.get('etag');
        const connected = await api.call('POST', `/forms/submission/${submission.id}/relations/link/connect`, { body: { relatedSubmissionId: related.id } });
        expect(connected.headers.get('etag')).to.match(STRONG_TAG).and.not.equal(before);
        const stale = await api.call('GET', `/forms/submission/${submission.id}`, { headers: { 'if-none-match': before! } });
        expect(stale.status).to.equal(200);

        const article = await client.article({});
        const tagged = (await api.call('GET', `/articles/getById/${article.id}`)).headers.get('etag');
        await api.call('PUT', `/articles/${article.id}/reaction`, { headers: { 'x-user-id': 'reader-1' }, body: { type: 'like' } });
        const after = await api.call('GET', `/articles/getById/${article.id}`, { headers: { 'if-none-match': tagged! } });
        expect(after.status).to.equal(200);
        expect(after.headers.get('etag')).to.not.equal(tagged);
      });

      it('sends no tag on an error and none on a list', async () => {
        expect((await api.call('GET', `/authors/getById/${UNKNOWN}`)).headers.get('etag')).to.equal(null);
        expect((await api.call('GET', '/authors/list')).headers.get('etag')).to.equal(null);
      });
    });
  });
}
