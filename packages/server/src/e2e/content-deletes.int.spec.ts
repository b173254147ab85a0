/** §6.4 deletes with their cascades and §6.5 relation disconnect over HTTP: order of checks, tenant isolation, cascades. */
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

const UNKNOWN = '0123456789abcdef01234567';

for (const storage of TEST_STORAGES) {
  describe(`Deletes and disconnect over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    const remove = async (path: string, headers?: Record<string, string>, key?: string) =>
      api.call('DELETE', path, { headers: headers ?? (await client.bearer('editor')), ...(key ? { key } : {}) });

    /** A target form, and a source form whose `links` (multi) and `one` (single) relations point at it. */
    const relatedForms = async (name: string) => {
      const target = await createForm(api, `${name}-target-${storage}`);
      const source = await createForm(api, `${name}-source-${storage}`, {
        sections: [
          {
            fields: [
              { name: 'name', type: 'text', label: { en: 'N' } },
              { name: 'links', type: 'relation', label: { en: 'L' }, relation: { formId: target.id, multiple: true } },
              { name: 'one', type: 'relation', label: { en: 'O' }, relation: { formId: target.id } },
            ],
          },
        ],
      });
      return { target, source };
    };
    const connect = (submissionId: string, field: string, relatedSubmissionId: string, verb = 'connect') =>
      api.call('POST', `/forms/submission/${submissionId}/relations/${field}/${verb}`, { body: { relatedSubmissionId } });

    describe('DELETE /forms/submission/{id}', () => {
      it('erases the submission and takes its id out of every relation that holds it', async () => {
        const { target, source } = await relatedForms('erase');
        const [gone, kept] = [await submitForm(api, target.id, { name: 'a' }), await submitForm(api, target.id, { name: 'b' })];
        const holder = await submitForm(api, source.id, { name: 'h' });
        await connect(holder.id, 'links', gone.id);
        await connect(holder.id, 'links', kept.id);
        await connect(holder.id, 'one', gone.id);
        const res = await remove(`/forms/submission/${gone.id}`);
        expect(res.status).to.equal(200);
        expect(res.body).to.deep.equal({ success: true, statusCode: 200, message: 'Submission deleted successfully', data: null });
        expect((await api.call('GET', `/forms/submission/${gone.id}`)).status).to.equal(404);
        expect((await api.call('GET', `/forms/submission/${holder.id}`)).body.data.submission.relations).to.deep.equal({ links: [kept.id] });
        expect((await remove(`/forms/submission/${gone.id}`)).status).to.equal(404);
      });

      it('answers 401/403 before the id, then 400 Invalid submission id, 404 (another tenant’s too), 412 on a stale If-Match', async () => {
        const form = await createForm(api, `erase-order-${storage}`);
        const submission = await submitForm(api, form.id, { name: 'x' });
        expect((await remove('/forms/submission/nope', {})).status).to.equal(401);
        expect((await remove('/forms/submission/nope', { 'x-user-id': 'u1' })).status).to.equal(401);
        expect((await remove('/forms/submission/nope', await client.bearer('author'))).status).to.equal(403);
        expect((await remove('/forms/submission/nope')).body.message).to.equal('Invalid submission id');
        expect((await remove(`/forms/submission/${UNKNOWN}`)).body.message).to.equal('Submission not found');
        const editorB = { authorization: `Bearer ${await api.token({ sub: 'e', role: 'editor', tenant: 'tenant-b' })}` };
        expect((await remove(`/forms/submission/${submission.id}`, editorB, TEST_KEYS.b)).status).to.equal(404);
        const stale = await remove(`/forms/submission/${submission.id}`, { ...(await client.bearer('admin')), 'if-match': '"stale"' });
        expect(stale.status).to.equal(412);
        const tag = (await api.call('GET', `/forms/submission/${submission.id}`)).headers.get('etag')!;
        expect((await remove(`/forms/submission/${submission.id}`, { ...(await client.bearer('admin')), 'if-match': tag })).status).to.equal(200);
      });
    });

    describe('DELETE /forms/delete/{id}', () => {
      it('removes the form, its submissions (and their ids in other forms’ relations); the previous form’s next is null', async () => {
        const { target, source } = await relatedForms('cascade');
        const previous = await createForm(api, `cascade-prev-${storage}`, { flow: { nextFormId: target.id } });
        const submissions = [await submitForm(api, target.id, { name: 'a' }), await submitForm(api, target.id, { name: 'b' })];
        const holder = await submitForm(api, source.id, { name: 'h' });
        await connect(holder.id, 'links', submissions[0].id);
        await connect(holder.id, 'one', submissions[1].id);
        const res = await remove(`/forms/delete/${target.id}`);
        expect(res.body).to.deep.equal({ success: true, statusCode: 200, message: 'Form deleted successfully', data: null });
        expect((await api.call('GET', `/forms/getById/${target.id}`)).status).to.equal(404);
        for (const submission of submissions) expect((await api.call('GET', `/forms/submission/${submission.id}`)).status).to.equal(404);
        expect((await api.call('GET', `/forms/submission/${holder.id}`)).body.data.submission.relations).to.deep.equal({ links: [] });
        expect((await api.call('GET', `/forms/getNextById/${previous.id}`)).body.data).to.deep.equal({ nextForm: null });
        expect((await remove(`/forms/delete/${target.id}`)).status).to.equal(404);
        expect((await api.call('GET', `/forms/getBySlug/cascade-target-${storage}`)).status).to.equal(404);
      });

      it('leaves another tenant’s form alone (404)', async () => {
        const form = await createForm(api, `cascade-b-${storage}`, {}, { key: TEST_KEYS.b });
        expect((await remove(`/forms/delete/${form.id}`)).status).to.equal(404);
        expect((await api.call('GET', `/forms/getById/${form.id}`, { key: TEST_KEYS.b })).status).to.equal(200);
      });
    });

    describe('DELETE /authors/delete/{id} with If-Match', () => {
      it('answers 412 and keeps the author and its articles for a stale, weak or malformed tag; deletes for its tag or *', async () => {
        const editor = await client.bearer('editor');
        const create = async () => {
          const author = (await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Ada' } })).body.data.author;
          return { author, article: await client.article({ authorId: author.id }) };
        };
        const { author, article } = await create();
        const tag = (await api.call('GET', `/authors/getById/${author.id}`)).headers.get('etag')!;
        for (const ifMatch of ['"stale"', `W/${tag}`, `*, ${tag}`, '']) {
          const res = await remove(`/authors/delete/${author.id}`, { ...editor, 'if-match': ifMatch });
          expect(res.status, ifMatch).to.equal(412);
          expect(res.body, ifMatch).to.deep.equal({ success: false, statusCode: 412, message: 'Precondition failed', data: null });
        }
        expect((await api.call('GET', `/articles/getById/${article.id}`)).body.data.article.authorId).to.equal(author.id);
        expect((await remove(`/authors/delete/${UNKNOWN}`, { ...editor, 'if-match': '*' })).body.message).to.equal('Author not found');
        expect((await remove(`/authors/delete/${author.id}`, { ...editor, 'if-match': tag })).status).to.equal(200);
        expect((await api.call('GET', `/articles/getById/${article.id}`)).body.data.article.authorId).to.equal(null);
        const other = await create();
        expect((await remove(`/authors/delete/${other.author.id}`, { ...editor, 'if-match': '*' })).status).to.equal(200);
        expect((await api.call('GET', `/authors/getById/${other.author.id}`)).status).to.equal(404);
      });
    });

    describe('DELETE articles, comments, categories', () => {
      it('removes an article with its comments and their reactions', async () => {
        const article = await client.article({});
        const comment = await client.comment(article.id);
        await api.call('PUT', `/articles/comments/${comment.id}/reaction`, { headers: { 'x-user-id': 'fan' }, body: { type: 'like' } });
        const res = await remove(`/articles/delete/${article.id}`);
        expect(res.body.message).to.equal('Article deleted successfully');
        expect((await api.call('GET', `/articles/getById/${article.id}`)).status).to.equal(404);
        expect((await api.call('GET', `/articles/comments/${comment.id}/reactionSummary`)).status).to.equal(404);
        expect((await remove(`/articles/delete/${article.id}`)).status).to.equal(404);
        expect((await remove('/articles/delete/nope')).body.message).to.equal('Invalid article id');
      });

      it('removes a pending or approved comment (moderation) with its reactions', async () => {
        const article = await client.article({});
        const pending = await client.comment(article.id, { approve: false });
        const approved = await client.comment(article.id);
        for (const comment of [pending, approved]) {
          const res = await remove(`/articles/comments/${comment.id}`);
          expect(res.body).to.deep.equal({ success: true, statusCode: 200, message: 'Comment deleted successfully', data: null });
        }
        expect((await api.call('GET', `/articles/${article.id}/comments?status=all`, { headers: await client.bearer('admin') })).body.data.comments).to.deep.equal([]);
        expect((await remove(`/articles/comments/${approved.id}`)).body.message).to.equal('Comment not found');
        expect((await remove('/articles/comments/nope')).body.message).to.equal('Invalid comment id');
      });

      it('refuses a category with sub-categories (409); otherwise articles keep null references', async () => {
        const top = await client.category({ name: 'Top' });
        const sub = await client.category({ name: 'Sub', parentId: top.id });
        const article = await client.article({ categoryId: top.id, subCategoryId: sub.id });
        const refused = await remove(`/categories/delete/${top.id}`);
        expect(refused.status).to.equal(409);
        expect(refused.body.message).to.equal('Category has sub-categories');
        expect((await remove(`/categories/delete/${sub.id}`)).body.message).to.equal('Category deleted successfully');
        expect((await remove(`/categories/delete/${top.id}`)).status).to.equal(200);
        expect((await api.call('GET', `/articles/getById/${article.id}`)).body.data.article).to.include({ categoryId: null, subCategoryId: null });
        expect((await remove(`/categories/delete/${top.id}`)).body.message).to.equal('Category not found');
      });
    });

    describe('POST /forms/submission/{id}/relations/{fieldName}/disconnect', () => {
      it('disconnects from lists and single values, also an id that no longer exists; not connected is still 200', async () => {
        const { target, source } = await relatedForms('disc');
        const related = await submitForm(api, target.id, { name: 'r' });
        const holder = await submitForm(api, source.id, { name: 'h' });
        await connect(holder.id, 'links', related.id);
        await connect(holder.id, 'one', related.id);
        const list = await connect(holder.id, 'links', related.id, 'disconnect');
        expect(list.status).to.equal(200);
        expect(list.body.message).to.equal('Relation disconnected successfully');
        expect(list.body.data.submission.relations).to.deep.equal({ links: [], one: related.id });
        expect((await connect(holder.id, 'one', UNKNOWN, 'disconnect')).body.data.submission.relations).to.deep.equal({ links: [], one: related.id });
        expect((await connect(holder.id, 'one', related.id, 'disconnect')).body.data.submission.relations).to.deep.equal({ links: [] });
      });

      it('refuses an id it does not hold whose submission is of another form (400, as connect), but takes out one it holds after a retarget', async () => {
        const { target, source } = await relatedForms('disc-form');
        const other = await createForm(api, `disc-form-other-${storage}`);
        const [related, stranger] = [await submitForm(api, target.id, { name: 'r' }), await submitForm(api, other.id, { name: 's' })];
        const holder = await submitForm(api, source.id, { name: 'h' });
        await connect(holder.id, 'links', related.id);
        const refused = await connect(holder.id, 'links', stranger.id, 'disconnect');
        expect(refused.status).to.equal(400);
        expect(refused.body.message).to.equal('Related submission belongs to another form');
        // The field now points at the other form; the id it still holds from the first stays removable.
        const fields = [
          { name: 'name', type: 'text', label: { en: 'N' } },
          { name: 'links', type: 'relation', label: { en: 'L' }, relation: { formId: other.id, multiple: true } },
        ];
        expect((await api.call('PATCH', `/forms/update/${source.id}`, { body: { sections: [{ fields }] } })).status).to.equal(200);
        const taken = await connect(holder.id, 'links', related.id, 'disconnect');
        expect(taken.status).to.equal(200);
        expect(taken.body.data.submission.relations).to.deep.equal({ links: [] });
        expect((await connect(holder.id, 'links', related.id, 'disconnect')).body.message).to.equal('Related submission belongs to another form');
        expect((await connect(holder.id, 'links', stranger.id, 'disconnect')).status).to.equal(200);
      });

      it('checks in the order of connect: 400 id → 400 body → 404 submission → 404 relation field', async () => {
        const { source } = await relatedForms('disc-order');
        const holder = await submitForm(api, source.id, { name: 'h' });
        expect((await connect('nope', 'links', 'bad', 'disconnect')).body.message).to.equal('Invalid submission id');
        expect((await connect(holder.id, 'links', 'bad', 'disconnect')).status).to.equal(400);
        expect((await connect(UNKNOWN, 'links', UNKNOWN, 'disconnect')).body.message).to.equal('Submission not found');
        expect((await connect(holder.id, 'name', UNKNOWN, 'disconnect')).body.message).to.equal('Relation field not found');
        const foreign = await api.call('POST', `/forms/submission/${holder.id}/relations/links/disconnect`, { key: TEST_KEYS.b, body: { relatedSubmissionId: UNKNOWN } });
        expect(foreign.status).to.equal(404);
      });
    });
  });
}
