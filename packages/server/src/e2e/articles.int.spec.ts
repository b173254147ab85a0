/** §2.7 companions over HTTP: POST /categories/create, POST /articles/create, GET /articles/getById/{id}. */
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { CATEGORY_REFUSALS } from './invalid-inputs.js';

const UNKNOWN = '0123456789abcdef01234567';

for (const storage of TEST_STORAGES) {
  describe(`Categories and articles over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    describe('POST /categories/create', () => {
      it('answers 201 with a top-level category, reactions enabled by default', async () => {
        const res = await api.call('POST', '/categories/create', { headers: await client.bearer('admin'), body: { name: 'News' } });
        expect(res.status).to.equal(201);
        expect(res.body.message).to.equal('Category created successfully');
        const category = res.body.data.category;
        expect(Object.keys(category)).to.have.members(['id', 'name', 'parentId', 'reactionsEnabled', 'createdAt', 'updatedAt']);
        expect(category).to.include({ name: 'News', parentId: null, reactionsEnabled: true });
      });

      it('creates a sub-category of a top-level category', async () => {
        const parent = await client.category({ name: 'News' });
        const res = await api.call('POST', '/categories/create', {
          headers: await client.bearer('editor'),
          body: { name: 'Local', parentId: parent.id, reactionsEnabled: false },
        });
        expect(res.status).to.equal(201);
        expect(res.body.data.category).to.include({ parentId: parent.id, reactionsEnabled: false });
      });

      it('answers 400 for a parent that is unknown, malformed or itself a sub-category', async () => {
        const top = await client.category({ name: 'Top' });
        const sub = await client.category({ name: 'Sub', parentId: top.id });
        const cases: Array<[unknown, string]> = [
          [UNKNOWN, 'Validation failed: body.parentId must be an existing category'],
          ['nope', 'Validation failed: body.parentId must be an id of 24 hexadecimal characters'],
          [sub.id, 'Validation failed: body.parentId must be a top-level category (one level of nesting)'],
        ];
        for (const [parentId, message] of cases) {
          const res = await api.call('POST', '/categories/create', { headers: await client.bearer('editor'), body: { name: 'X', parentId } });
          expect(res.status).to.equal(400);
          expect(res.body.message).to.equal(message);
        }
      });

      it('answers 400 for a missing name, an unknown property or a non-boolean flag', async () => {
        for (const [body, message] of CATEGORY_REFUSALS) {
          const res = await api.call('POST', '/categories/create', { headers: await client.bearer('editor'), body });
          expect(res.status).to.equal(400);
          expect(res.body.message).to.equal(message);
        }
      });

      it('answers 401 without a bearer token and 403 for role author', async () => {
        expect((await api.call('POST', '/categories/create', { headers: { 'x-user-id': 'u1' }, body: { name: 'A' } })).status).to.equal(401);
        const res = await api.call('POST', '/categories/create', { headers: await client.bearer('author'), body: { name: 'A' } });
        expect(res.status).to.equal(403);
        expect(res.body.message).to.equal('Forbidden');
      });
    });

    describe('POST /articles/create and GET /articles/getById/{id}', () => {
      it('answers 201 with likes 0 and dislikes 0 for an admin, an editor and an author', async () => {
        const author = (await api.call('POST', '/authors/create', { headers: await client.bearer('editor'), body: { name: 'Ada' } })).body.data.author;
        const news = await client.category({ name: 'News' });
        const local = await client.category({ name: 'Local', parentId: news.id });
        for (const role of ['admin', 'editor', 'author'] as const) {
          const res = await api.call('POST', '/articles/create', {
            headers: await client.bearer(role),
            body: { title: 'Hello', content: 'Body', authorId: author.id, categoryId: news.id, subCategoryId: local.id, reactionsEnabled: false },
          });
          expect(res.status).to.equal(201);
          expect(res.body.message).to.equal('Article created successfully');
          const article = res.body.data.article;
          expect(article).to.include({ title: 'Hello', content: 'Body', authorId: author.id, categoryId: news.id, subCategoryId: local.id });
          expect(article).to.include({ reactionsEnabled: false, likes: 0, dislikes: 0 });
          const read = await api.call('GET', `/articles/getById/${article.id.toUpperCase()}`);
          expect(read.status).to.equal(200);
          expect(read.body.message).to.equal('Article retrieved successfully');
          expect(read.body.data.article).to.deep.equal(article);
        }
      });

      it('defaults reactionsEnabled to true and the references to null', async () => {
        const res = await api.call('POST', '/articles/create', { headers: await client.bearer('editor'), body: { title: 'Bare' } });
        expect(res.body.data.article).to.include({ reactionsEnabled: true, content: '', authorId: null, categoryId: null, subCategoryId: null });
      });

      it('answers 400, not 404, for references that do not exist or do not fit', async () => {
        const news = await client.category({ name: 'News' });
        const sport = await client.category({ name: 'Sport' });
        const local = await client.category({ name: 'Local', parentId: news.id });
        const cases: Array<[object, string]> = [
          [{ authorId: UNKNOWN }, 'Validation failed: body.authorId must be an existing author'],
          [{ categoryId: UNKNOWN }, 'Validation failed: body.categoryId must be an existing category'],
          [{ categoryId: local.id }, 'Validation failed: body.categoryId must be a top-level category'],
          [{ subCategoryId: local.id }, 'Validation failed: body.categoryId is required with body.subCategoryId'],
          [{ categoryId: sport.id, subCategoryId: local.id }, 'Validation failed: body.subCategoryId must be a sub-category of body.categoryId'],
          [{ categoryId: 'abc' }, 'Validation failed: body.categoryId must be an id of 24 hexadecimal characters'],
          [{ title: '' }, 'Validation failed: body.title must NOT have fewer than 1 characters'],
          [{ likes: 5 }, 'Validation failed: body.likes is not allowed'],
        ];
        for (const [body, message] of cases) {
          const res = await api.call('POST', '/articles/create', { headers: await client.bearer('editor'), body: { title: 'T', ...body } });
          expect(res.status, message).to.equal(400);
          expect(res.body.message).to.equal(message);
        }
      });

      it('answers 401 without a bearer token and 403 for role member', async () => {
        expect((await api.call('POST', '/articles/create', { body: { title: 'T' } })).status).to.equal(401);
        expect((await api.call('POST', '/articles/create', { headers: await client.bearer('member'), body: { title: 'T' } })).status).to.equal(403);
      });

      it('answers 400 Invalid article id and 404 Article not found on reads', async () => {
        const malformed = await api.call('GET', '/articles/getById/xyz');
        expect(malformed.status).to.equal(400);
        expect(malformed.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid article id', data: null });
        const missing = await api.call('GET', `/articles/getById/${UNKNOWN}`);
        expect(missing.status).to.equal(404);
        expect(missing.body).to.deep.equal({ success: false, statusCode: 404, message: 'Article not found', data: null });
      });
    });
  });
}
