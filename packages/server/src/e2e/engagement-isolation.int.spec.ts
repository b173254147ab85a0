/**
 * §1.5 for every engagement route: another tenant's author, category, article or comment
 * behaves exactly like one that does not exist. Also checks the routes are in the OpenAPI document.
 */
import { expect } from 'chai';
import { engagementClient, guest, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';

for (const storage of TEST_STORAGES) {
  describe(`Engagement tenant isolation over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    let records: { author: string; category: string; sub: string; article: string; comment: string; pending: string };
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
      const author = (await api.call('POST', '/authors/create', { headers: await client.bearer('editor'), body: { name: 'Ada' } })).body.data.author.id;
      const category = (await client.category({ name: 'News' })).id;
      const sub = (await client.category({ name: 'Local', parentId: category })).id;
      const article = (await client.article({ authorId: author, categoryId: category, subCategoryId: sub })).id;
      await api.call('PUT', `/articles/${article}/reaction`, { headers: { 'x-user-id': 'a-reader' }, body: { type: 'like' } });
      const comment = (await client.comment(article)).id;
      await api.call('PUT', `/articles/comments/${comment}/reaction`, { headers: { 'x-user-id': 'a-reader' }, body: { type: 'like' } });
      const pending = (await client.comment(article, { approve: false })).id;
      records = { author, category, sub, article, comment, pending };
    });
    after(() => api.stop());

    /** A request as tenant b: its key, and a bearer token of tenant b unless headers are given. */
    const asB = async (method: string, path: string, options: { headers?: Record<string, string>; body?: unknown } = {}) =>
      api.call(method, path, {
        key: TEST_KEYS.b,
        headers: options.headers ?? (await client.bearer('admin', 'b-admin', 'tenant-b')),
        ...(options.body !== undefined ? { body: options.body } : {}),
      });

    const notFound: Array<[string, () => Promise<{ status: number; body: any }>, number, string]> = [
      ['GET /authors/getById', () => asB('GET', `/authors/getById/${records.author}`), 404, 'Author not found'],
      ['DELETE /authors/delete', () => asB('DELETE', `/authors/delete/${records.author}`), 404, 'Author not found'],
      ['GET /articles/getById', () => asB('GET', `/articles/getById/${records.article}`), 404, 'Article not found'],
      ['PUT /articles/{id}/reaction (user)', () => asB('PUT', `/articles/${records.article}/reaction`, { body: { type: 'dislike' } }), 404, 'Article not found'],
      ['DELETE /articles/{id}/reaction (guest)', () => asB('DELETE', `/articles/${records.article}/reaction`, { headers: guest('guest-b-0001') }), 404, 'Article not found'],
      ['POST /articles/{id}/comments', () => asB('POST', `/articles/${records.article}/comments`, { body: { content: 'x' } }), 404, 'Article not found'],
      ['PUT /articles/comments/{id}/approve', () => asB('PUT', `/articles/comments/${records.pending}/approve`), 404, 'Comment not found'],
      ['PUT /articles/comments/{id}/reaction', () => asB('PUT', `/articles/comments/${records.comment}/reaction`, { body: { type: 'dislike' } }), 404, 'Comment not found'],
      ['DELETE /articles/comments/{id}/reaction', () => asB('DELETE', `/articles/comments/${records.comment}/reaction`, { headers: { 'x-user-id': 'a-reader' } }), 404, 'Comment not found'],
      ['GET /articles/comments/{id}/reactionSummary', () => asB('GET', `/articles/comments/${records.comment}/reactionSummary`, { headers: { 'x-user-id': 'a-reader' } }), 404, 'Comment not found'],
      ['POST /articles/create with tenant a’s author', () => asB('POST', '/articles/create', { body: { title: 'T', authorId: records.author } }), 400, 'Validation failed: body.authorId must be an existing author'],
      ['POST /articles/create with tenant a’s category', () => asB('POST', '/articles/create', { body: { title: 'T', categoryId: records.category } }), 400, 'Validation failed: body.categoryId must be an existing category'],
      ['POST /categories/create with tenant a’s parent', () => asB('POST', '/categories/create', { body: { name: 'X', parentId: records.category } }), 400, 'Validation failed: body.parentId must be an existing category'],
    ];
    for (const [name, request, status, message] of notFound) {
      it(`${name}: another tenant’s record is ${status} ${message}`, async () => {
        const res = await request();
        expect(res.status).to.equal(status);
        expect(res.body.message).to.equal(message);
      });
    }

    it('leaves tenant a’s records and totals untouched', async () => {
      for (const [, request] of notFound) await request();
      expect((await api.call('GET', `/authors/getById/${records.author}`)).status).to.equal(200);
      const article = (await api.call('GET', `/articles/getById/${records.article}`)).body.data.article;
      expect(article).to.include({ authorId: records.author, likes: 1, dislikes: 0 });
      const summary = (await api.call('GET', `/articles/comments/${records.comment}/reactionSummary`, { headers: { 'x-user-id': 'a-reader' } })).body.data;
      expect(summary).to.deep.equal({ commentId: records.comment, likes: 1, dislikes: 0, userReaction: 'like' });
      expect((await api.call('GET', `/articles/comments/${records.pending}/reactionSummary`)).status).to.equal(404);
    });

    it('lists every engagement route, with its outcomes, in /cms/openapi.json', async () => {
      const doc = (await api.call('GET', '/openapi.json', { key: null })).body;
      const expected: Array<[string, string, string[]]> = [
        ['/authors/create', 'post', ['201', '400', '401', '403', '413', '415', '500']],
        ['/authors/getById/{id}', 'get', ['200', '304', '401', '404', '500']],
        ['/authors/delete/{id}', 'delete', ['200', '401', '403', '404', '412', '500']],
        ['/categories/create', 'post', ['201', '400', '401', '403', '413', '415', '500']],
        ['/articles/create', 'post', ['201', '400', '401', '403', '413', '415', '500']],
        ['/articles/getById/{id}', 'get', ['200', '304', '400', '401', '404', '500']],
        ['/articles/{id}/reaction', 'put', ['200', '400', '401', '403', '404', '413', '415', '429', '500']],
        ['/articles/{id}/reaction', 'delete', ['200', '400', '401', '403', '404', '429', '500']],
        ['/articles/{id}/comments', 'post', ['201', '400', '401', '404', '413', '415', '429', '500']],
        ['/articles/comments/{commentId}/approve', 'put', ['200', '400', '401', '403', '404', '500']],
        ['/articles/comments/{commentId}/reaction', 'put', ['200', '400', '401', '403', '404', '413', '415', '429', '500']],
        ['/articles/comments/{commentId}/reaction', 'delete', ['200', '400', '401', '403', '404', '429', '500']],
        ['/articles/comments/{commentId}/reactionSummary', 'get', ['200', '400', '401', '404', '500']],
      ];
      for (const [path, method, statuses] of expected) {
        const operation = doc.paths[path]?.[method];
        expect(operation, `${method} ${path}`).to.be.an('object');
        expect(Object.keys(operation.responses), `${method} ${path}`).to.have.members(statuses);
      }
      const remove = doc.paths['/articles/{id}/reaction'].delete;
      expect(remove.responses['200'].description).to.equal('Reaction removed successfully');
      expect(remove.responses['401'].description).to.contain('captchaToken is required for guest engagement').and.contain('captchaToken is invalid');
      expect(remove.responses['429'].description).to.equal('Too many guest reactions, please try later');
      const own = remove.parameters.filter((p: { name?: string }) => p.name !== undefined);
      expect(own.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).to.have.members([
        'header:x-user-id',
        'path:id',
        'header:x-guest-id',
        'header:x-captcha-token',
        'query:captchaToken',
      ]);
      expect(doc.paths['/authors/delete/{id}'].delete.security).to.deep.equal([{ apiKey: [], bearer: [] }]);
    });
  });
}
