/** §2.2 over HTTP: POST /authors/create, GET /authors/getById/{id}, DELETE /authors/delete/{id}. */
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { AUTHOR_REFUSALS } from './invalid-inputs.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '0123456789abcdef01234567';

for (const storage of TEST_STORAGES) {
  describe(`Authors over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    const createAuthor = async (body: unknown = { name: 'Ada' }) =>
      (await api.call('POST', '/authors/create', { headers: await client.bearer('editor'), body })).body.data.author as { id: string };

    describe('POST /authors/create', () => {
      it('answers 201 with the author and every field', async () => {
        for (const role of ['admin', 'editor'] as const) {
          const res = await api.call('POST', '/authors/create', {
            headers: await client.bearer(role),
            body: { name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Engines.', avatarUrl: 'https://cdn.example.com/ada.png' },
          });
          expect(res.status).to.equal(201);
          expect(res.body).to.include({ success: true, statusCode: 201, message: 'Author created successfully' });
          const author = res.body.data.author;
          expect(Object.keys(author)).to.have.members(['id', 'name', 'email', 'bio', 'avatarUrl', 'createdAt', 'updatedAt']);
          expect(author).to.include({ name: 'Ada Lovelace', email: 'ada@example.com', bio: 'Engines.', avatarUrl: 'https://cdn.example.com/ada.png' });
          expect(author.id).to.match(/^[0-9a-f]{24}$/);
          expect(author.createdAt).to.match(ISO_MS);
          expect(author.updatedAt).to.equal(author.createdAt);
        }
      });

      it('answers null for optional fields not given (or given as null)', async () => {
        const res = await api.call('POST', '/authors/create', { headers: await client.bearer('admin'), body: { name: 'Bo', bio: null } });
        expect(res.body.data.author).to.include({ email: null, bio: null, avatarUrl: null });
      });

      const access: Array<[string, () => Promise<Record<string, string>>, number, string]> = [
        ['no bearer token', async () => ({}), 401, 'Unauthorized'],
        ['only x-user-id', async () => ({ 'x-user-id': 'editor-1' }), 401, 'Unauthorized'],
        ['role author', () => client.bearer('author'), 403, 'Forbidden'],
        ['role member', () => client.bearer('member'), 403, 'Forbidden'],
      ];
      for (const [name, headers, status, message] of access) {
        it(`answers ${status} ${message} for ${name}, before the body is checked`, async () => {
          const res = await api.call('POST', '/authors/create', { headers: await headers(), body: { nope: true } });
          expect(res.status).to.equal(status);
          expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
        });
      }

      const invalid = AUTHOR_REFUSALS;
      for (const [name, body, message] of invalid) {
        it(`answers 400 for ${name}`, async () => {
          const res = await api.call('POST', '/authors/create', { headers: await client.bearer('editor'), body });
          expect(res.status).to.equal(400);
          expect(res.body.message).to.equal(message);
          expect(res.body.data).to.equal(null);
        });
      }
    });

    describe('GET /authors/getById/{id}', () => {
      it('answers 200 with the author, for any caller of the tenant and any letter case', async () => {
        const author = await createAuthor({ name: 'Cy', email: 'cy@example.com' });
        const res = await api.call('GET', `/authors/getById/${author.id.toUpperCase()}`);
        expect(res.status).to.equal(200);
        expect(res.body.message).to.equal('Author retrieved successfully');
        expect(res.body.data.author).to.include({ id: author.id, name: 'Cy', email: 'cy@example.com' });
      });

      it('answers 404 Author not found for a malformed or unknown id', async () => {
        for (const id of ['nope', UNKNOWN, `${UNKNOWN}0`]) {
          const res = await api.call('GET', `/authors/getById/${id}`);
          expect(res.status).to.equal(404);
          expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Author not found', data: null });
        }
      });
    });

    describe('DELETE /authors/delete/{id}', () => {
      it('answers 200 with data null, removes the author, and keeps its articles with authorId null', async () => {
        const author = await createAuthor();
        const other = await createAuthor({ name: 'Other' });
        const first = await client.article({ authorId: author.id });
        const second = await client.article({ authorId: author.id.toUpperCase() });
        const unrelated = await client.article({ authorId: other.id });
        const res = await api.call('DELETE', `/authors/delete/${author.id}`, { headers: await client.bearer('admin') });
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ success: true, statusCode: 200, message: 'Author deleted successfully', data: null });
        expect((await api.call('GET', `/authors/getById/${author.id}`)).status).to.equal(404);
        for (const article of [first, second]) {
          const read = await api.call('GET', `/articles/getById/${article.id}`);
          expect(read.status).to.equal(200);
          expect(read.body.data.article.authorId).to.equal(null);
        }
        expect((await api.call('GET', `/articles/getById/${unrelated.id}`)).body.data.article.authorId).to.equal(other.id);
      });

      it('answers 404 Author not found to a second delete', async () => {
        const author = await createAuthor();
        const headers = await client.bearer('editor');
        expect((await api.call('DELETE', `/authors/delete/${author.id}`, { headers })).status).to.equal(200);
        const again = await api.call('DELETE', `/authors/delete/${author.id}`, { headers });
        expect(again.status).to.equal(404);
        expect(again.body).to.deep.equal({ success: false, statusCode: 404, message: 'Author not found', data: null });
      });

      it('answers 404 Author not found for a malformed id (even upper-case hex finds the author)', async () => {
        const headers = await client.bearer('editor');
        for (const id of ['123', 'g'.repeat(24), UNKNOWN]) {
          const res = await api.call('DELETE', `/authors/delete/${id}`, { headers });
          expect(res.status).to.equal(404);
          expect(res.body.message).to.equal('Author not found');
        }
        const author = await createAuthor();
        expect((await api.call('DELETE', `/authors/delete/${author.id.toUpperCase()}`, { headers })).status).to.equal(200);
      });

      describe('when the caller may not delete', () => {
        const cases: Array<[string, () => Promise<Record<string, string>>, number, string]> = [
          ['no bearer token', async () => ({}), 401, 'Unauthorized'],
          ['only x-user-id', async () => ({ 'x-user-id': 'admin-1' }), 401, 'Unauthorized'],
          ['an invalid token', async () => ({ authorization: 'Bearer broken' }), 401, 'Unauthorized'],
          ['a token of another tenant', () => client.bearer('admin', 'a1', 'tenant-b'), 401, 'Unauthorized'],
          ['role author', () => client.bearer('author'), 403, 'Forbidden'],
          ['role member', () => client.bearer('member'), 403, 'Forbidden'],
        ];
        for (const [name, headers, status, message] of cases) {
          it(`answers ${status} ${message} for ${name}, before the id is checked, and deletes nothing`, async () => {
            const author = await createAuthor();
            for (const id of [author.id, 'malformed']) {
              const res = await api.call('DELETE', `/authors/delete/${id}`, { headers: await headers() });
              expect(res.status).to.equal(status);
              expect(res.body).to.deep.equal({ success: false, statusCode: status, message, data: null });
            }
            expect((await api.call('GET', `/authors/getById/${author.id}`)).status).to.equal(200);
          });
        }

        it('answers 401 without an API key before anything else', async () => {
          const res = await api.call('DELETE', `/authors/delete/${UNKNOWN}`, { key: null, headers: await client.bearer('admin') });
          expect(res.status).to.equal(401);
        });
      });

      it('treats another tenant’s author as missing', async () => {
        const author = await createAuthor();
        const headers = await client.bearer('admin', 'b-admin', 'tenant-b');
        const res = await api.call('DELETE', `/authors/delete/${author.id}`, { key: TEST_KEYS.b, headers });
        expect(res.status).to.equal(404);
        expect((await api.call('GET', `/authors/getById/${author.id}`, { key: TEST_KEYS.b })).status).to.equal(404);
        expect((await api.call('GET', `/authors/getById/${author.id}`)).status).to.equal(200);
      });
    });
  });
}
