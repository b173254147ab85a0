/** §6.3 over HTTP: PATCH of forms, articles, categories and authors, with If-Match, races and the order of checks. */
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { expect } from 'chai';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, formBody } from './form-requests.js';
import { formUpdateRefusals } from './invalid-inputs.js';

const UNKNOWN = '0123456789abcdef01234567';

for (const storage of TEST_STORAGES) {
  describe(`Updates over HTTP (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
    });
    after(() => api.stop());

    const patch = (path: string, body: unknown, headers: Record<string, string> = {}, key?: string) =>
      api.call('PATCH', path, { headers, body, ...(key ? { key } : {}) });

    describe('PATCH /forms/update/{id}', () => {
      it('changes the given properties, keeps the others, moves updatedAt and the ETag', async () => {
        const form = await createForm(api, `upd-${storage}`, { description: { en: 'Old' } });
        const read = await api.call('GET', `/forms/getById/${form.id}`);
        const res = await patch(`/forms/update/${form.id}`, { isActive: false, title: { en: 'New title' } }, { 'if-match': read.headers.get('etag')! });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.message).to.equal('Form updated successfully');
        expect(res.body.data.form).to.deep.include({ isActive: false, title: { en: 'New title' }, description: { en: 'Old' }, slug: form.slug });
        expect(res.body.data.form.createdAt).to.equal(form.createdAt);
        expect(Date.parse(res.body.data.form.updatedAt)).to.be.greaterThan(Date.parse(form.updatedAt));
        expect(res.headers.get('etag')).to.not.equal(read.headers.get('etag'));
        const after = await api.call('GET', `/forms/getById/${form.id}`);
        expect(after.body.data.form).to.deep.equal(res.body.data.form);
        expect(after.headers.get('etag')).to.equal(res.headers.get('etag'));
      });

      it('takes no If-None-Match on a write: the change is made and answered 200 with the record (a 304 is for reads)', async () => {
        const form = await createForm(api, `upd-inm-${storage}`);
        const read = await api.call('GET', `/forms/getById/${form.id}`);
        for (const [n, condition] of [read.headers.get('etag')!, '*'].entries()) {
          const res = await patch(`/forms/update/${form.id}`, { title: { en: `Retitled ${n}` } }, { 'if-none-match': condition });
          expect(res.status, condition).to.equal(200);
          expect(res.body.data.form.title, condition).to.deep.equal({ en: `Retitled ${n}` });
        }
      });

      it('sets null properties back to their defaults and treats {} as a no-op', async () => {
        const form = await createForm(api, `upd-null-${storage}`, { description: { en: 'Gone soon' }, visibility: 'internal' });
        const reset = await patch(`/forms/update/${form.id}`, { description: null, visibility: null });
        expect(reset.body.data.form).to.deep.include({ description: {}, visibility: 'public' });
        const noop = await patch(`/forms/update/${form.id}`, {});
        expect(noop.status).to.equal(200);
        expect(noop.body.data.form).to.deep.equal(reset.body.data.form);
        expect(noop.headers.get('etag')).to.equal(reset.headers.get('etag'));
      });

      it('answers 409 for a taken slug, 400 for a form naming itself in flow, a read-only property or a bad value', async () => {
        const form = await createForm(api, `upd-a-${storage}`);
        await createForm(api, `upd-b-${storage}`);
        const taken = await patch(`/forms/update/${form.id}`, { slug: `upd-b-${storage}` });
        expect(taken.status).to.equal(409);
        expect(taken.body.message).to.equal('Form slug already exists');
        const cases = formUpdateRefusals(form.id);
        for (const [body, message] of cases) {
          const res = await patch(`/forms/update/${form.id}`, body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.message, JSON.stringify(body)).to.equal(message);
        }
        expect((await api.call('GET', `/forms/getById/${form.id}`)).body.data.form.updatedAt).to.equal(form.updatedAt);
      });

      it('keeps a reference to a form deleted since as it was, and refuses a new one to it', async () => {
        const target = await createForm(api, `upd-gone-${storage}`);
        const relation = (name: string) => ({ name, type: 'relation', label: { en: name }, relation: { formId: target.id } });
        const form = await createForm(api, `upd-keeps-${storage}`, {
          sections: [{ fields: [relation('employer')] }],
          flow: { nextFormId: target.id },
        });
        const removed = await api.call('DELETE', `/forms/delete/${target.id}`, { headers: await client.bearer('editor') });
        expect(removed.status, JSON.stringify(removed.body)).to.equal(200);

        const retitled = await patch(`/forms/update/${form.id}`, { title: { en: 'Still editable' } });
        expect(retitled.status, JSON.stringify(retitled.body)).to.equal(200);
        expect(retitled.body.data.form).to.deep.include({ sections: form.sections, flow: form.flow });
        const resent = await patch(`/forms/update/${form.id}`, { sections: form.sections, flow: form.flow, isActive: false });
        expect(resent.status, JSON.stringify(resent.body)).to.equal(200);

        const fresh: Array<[unknown, string]> = [
          [{ sections: [{ fields: [relation('employer'), relation('other')] }] }, 'body.sections[0].fields[1].relation.formId'],
          [{ sections: [{ fields: [relation('boss')] }] }, 'body.sections[0].fields[0].relation.formId'],
          [{ flow: { nextFormId: target.id, previousFormId: target.id } }, 'body.flow.previousFormId'],
        ];
        for (const [body, path] of fresh) {
          const res = await patch(`/forms/update/${form.id}`, body);
          expect(res.status, JSON.stringify(body)).to.equal(400);
          expect(res.body.message).to.equal(`Validation failed: ${path} does not name a form of this tenant`);
        }
        const stored = (await api.call('GET', `/forms/getById/${form.id}`)).body.data.form;
        expect(stored).to.deep.include({ isActive: false, sections: form.sections, flow: form.flow });
      });

      it('lets new sections drop the e-mail field create chose as the submitter’s while submitter e-mail is off', async () => {
        const form = await createForm(api, `upd-submitter-${storage}`);
        expect(form.notifications.email.submitter).to.deep.equal({ enabled: false, field: 'email' });
        const sections = [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }];
        const res = await patch(`/forms/update/${form.id}`, { sections });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data.form.notifications.email.submitter).to.deep.equal({ enabled: false, field: null });

        const used = await createForm(api, `upd-submitter-on-${storage}`, { notifications: { email: { submitter: { enabled: true } } } });
        const refused = await patch(`/forms/update/${used.id}`, { sections });
        expect(refused.body.message).to.equal(
          'Validation failed: body.sections no longer have the email field "email" that notifications.email.submitter.field names',
        );
      });

      it('answers in order: 400 Invalid form id → 404 Form not found (another tenant’s too) → 412 → body 400', async () => {
        const form = await createForm(api, `upd-order-${storage}`);
        const bad = { nope: 1 };
        expect((await patch('/forms/update/nope', bad, { 'if-match': '"x"' })).body.message).to.equal('Invalid form id');
        expect((await patch(`/forms/update/${UNKNOWN}`, bad, { 'if-match': '"x"' })).body.message).to.equal('Form not found');
        const foreign = await patch(`/forms/update/${form.id}`, { isActive: false }, {}, TEST_KEYS.b);
        expect(foreign.status).to.equal(404);
        const stale = await patch(`/forms/update/${form.id}`, bad, { 'if-match': '"stale"' });
        expect(stale.status).to.equal(412);
        expect(stale.body).to.deep.equal({ success: false, statusCode: 412, message: 'Precondition failed', data: null });
        expect((await patch(`/forms/update/${form.id}`, bad, { 'if-match': '*' })).status).to.equal(400);
        expect((await api.call('GET', `/forms/getById/${form.id}`)).body.data.form.isActive).to.equal(true);
      });

      it('answers a body that is not JSON at the body step too: 404 and 412 first, then 400 Invalid JSON body', async () => {
        const form = await createForm(api, `upd-json-${storage}`);
        const unparsable = (path: string, headers: Record<string, string> = {}) => api.call('PATCH', path, { headers, rawBody: '{"isActive": fal' });
        expect((await unparsable(`/forms/update/${UNKNOWN}`)).body.message).to.equal('Form not found');
        expect((await unparsable(`/forms/update/${form.id}`, { 'if-match': '"stale"' })).status).to.equal(412);
        const res = await unparsable(`/forms/update/${form.id}`);
        expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid JSON body', data: null });
        expect((await api.call('GET', `/forms/getById/${form.id}`)).body.data.form.updatedAt).to.equal(form.updatedAt);
      });

      it('answers a body with a __proto__ key at the body step too: 404 and 412 first, then 400 naming it', async () => {
        const form = await createForm(api, `upd-proto-${storage}`);
        const prototyped = (path: string, headers: Record<string, string> = {}) =>
          api.call('PATCH', path, { headers, rawBody: '{"title": {"en": "New", "__proto__": {"polluted": 1}}}' });
        expect((await prototyped(`/forms/update/${UNKNOWN}`)).body.message).to.equal('Form not found');
        expect((await prototyped(`/forms/update/${form.id}`, { 'if-match': '"stale"' })).status).to.equal(412);
        const res = await prototyped(`/forms/update/${form.id}`);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.equal('Validation failed: body.title.__proto__ is not allowed');
        expect((await api.call('GET', `/forms/getById/${form.id}`)).body.data.form.updatedAt).to.equal(form.updatedAt);
      });

      it('gives one 200 and one 412 to two racing updates with the same If-Match, and loses no update without it', async () => {
        const form = await createForm(api, `upd-race-${storage}`);
        const tag = (await api.call('GET', `/forms/getById/${form.id}`)).headers.get('etag')!;
        const race = await Promise.all([
          patch(`/forms/update/${form.id}`, { title: { en: 'One' } }, { 'if-match': tag }),
          patch(`/forms/update/${form.id}`, { title: { en: 'Two' } }, { 'if-match': tag }),
        ]);
        expect(race.map((res) => res.status).sort()).to.deep.equal([200, 412]);
        const blind = await Promise.all([
          patch(`/forms/update/${form.id}`, { description: { en: 'D' } }),
          patch(`/forms/update/${form.id}`, { submitButtonText: { en: 'Go' } }),
        ]);
        expect(blind.map((res) => res.status)).to.deep.equal([200, 200]);
        const stored = (await api.call('GET', `/forms/getById/${form.id}`)).body.data.form;
        expect(stored).to.deep.include({ description: { en: 'D' }, submitButtonText: { en: 'Go' } });
      });
    });

    describe('PATCH /articles, /categories, /authors update', () => {
      it('treats a PATCH without a body, or with a JSON null body, as the no-op {} is, on every kind', async () => {
        const editor = await client.bearer('editor');
        const records: Array<[string, { id: string }]> = [
          ['forms', await createForm(api, `upd-empty-${storage}`)],
          ['articles', await client.article({ title: 'Kept' })],
          ['categories', await client.category({ name: 'Kept' })],
          ['authors', (await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Kept' } })).body.data.author],
        ];
        for (const [kind, record] of records) {
          const path = `/${kind}/update/${record.id}`;
          const before = await api.call('GET', `/${kind}/getById/${record.id}`);
          for (const options of [{ headers: editor }, { headers: editor, rawBody: 'null' }]) {
            const res = await api.call('PATCH', path, options);
            expect(res.status, `${path} ${JSON.stringify(res.body)}`).to.equal(200);
            expect(res.headers.get('etag'), path).to.equal(before.headers.get('etag'));
          }
        }
      });

      it('moves a category’s articles with it, so they stay filed under it and editable', async () => {
        const editor = await client.bearer('editor');
        const [p, q] = [await client.category({ name: `P ${storage}` }), await client.category({ name: `Q ${storage}` })];
        const [c, t] = [await client.category({ name: `C ${storage}`, parentId: p.id }), await client.category({ name: `T ${storage}` })];
        const [inC, inT] = [await client.article({ title: 'In C', categoryId: p.id, subCategoryId: c.id }), await client.article({ title: 'In T', categoryId: t.id })];
        const filing = async (article: { id: string }) => {
          const read = (await api.call('GET', `/articles/getById/${article.id}`)).body.data.article;
          return [read.categoryId, read.subCategoryId];
        };
        const moves: Array<[{ id: string }, string | null, { id: string }, unknown[]]> = [
          [c, q.id, inC, [q.id, c.id]], // a sub-category to another parent
          [c, null, inC, [c.id, null]], // a sub-category made top-level
          [t, p.id, inT, [p.id, t.id]], // a top-level category given a parent
        ];
        for (const [category, parentId, article, expected] of moves) {
          expect((await patch(`/categories/update/${category.id}`, { parentId }, editor)).status).to.equal(200);
          expect(await filing(article)).to.deep.equal(expected);
          const renamed = await patch(`/articles/update/${article.id}`, { title: `Renamed ${String(parentId)}` }, editor);
          expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
        }
      });

      it('updates an author (bearer admin or editor) and answers 401/403 before the id, 400 Invalid author id before 404', async () => {
        const editor = await client.bearer('editor');
        const author = (await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Ada', bio: 'Old' } })).body.data.author;
        const res = await patch(`/authors/update/${author.id}`, { name: 'Ada L.', bio: null }, editor);
        expect(res.status).to.equal(200);
        expect(res.body.message).to.equal('Author updated successfully');
        expect(res.body.data.author).to.include({ name: 'Ada L.', bio: null });
        expect((await patch('/authors/update/nope', {}, {})).status).to.equal(401);
        expect((await patch('/authors/update/nope', {}, await client.bearer('author'))).status).to.equal(403);
        expect((await patch('/authors/update/nope', {}, editor)).body.message).to.equal('Invalid author id');
        expect((await patch(`/authors/update/${UNKNOWN}`, {}, editor)).body.message).to.equal('Author not found');
        expect((await patch(`/authors/update/${author.id}`, { name: null }, editor)).body.message).to.match(/^Validation failed: body\.name/);
      });

      it('updates a category under the one-level rule', async () => {
        const editor = await client.bearer('editor');
        const top = await client.category({ name: 'Top' });
        const other = await client.category({ name: 'Other' });
        const child = await client.category({ name: 'Child', parentId: top.id });
        const moved = await patch(`/categories/update/${child.id}`, { parentId: other.id, reactionsEnabled: false }, editor);
        expect(moved.status).to.equal(200);
        expect(moved.body.message).to.equal('Category updated successfully');
        expect(moved.body.data.category).to.include({ parentId: other.id, reactionsEnabled: false, name: 'Child' });
        const withChildren = await patch(`/categories/update/${other.id}`, { parentId: top.id }, editor);
        expect(withChildren.status).to.equal(400);
        expect(withChildren.body.message).to.contain('body.parentId');
        expect((await patch(`/categories/update/${top.id}`, { parentId: child.id }, editor)).status).to.equal(400);
        expect((await patch(`/categories/update/${top.id}`, { parentId: top.id }, editor)).status).to.equal(400);
        expect((await patch('/categories/update/nope', {}, editor)).body.message).to.equal('Invalid category id');
      });

      it('updates an article (bearer author too) without making likes writable, and checks its references', async () => {
        const author = await client.bearer('author');
        const article = await client.article({ title: 'Before' });
        await api.call('PUT', `/articles/${article.id}/reaction`, { headers: { 'x-user-id': 'fan-1' }, body: { type: 'like' } });
        const res = await patch(`/articles/update/${article.id}`, { title: 'After', content: 'Body' }, author);
        expect(res.status).to.equal(200);
        expect(res.body.message).to.equal('Article updated successfully');
        expect(res.body.data.article).to.include({ title: 'After', content: 'Body', likes: 1, dislikes: 0 });
        expect((await patch(`/articles/update/${article.id}`, { likes: 10 }, author)).body.message).to.equal('Validation failed: body.likes is not allowed');
        expect((await patch(`/articles/update/${article.id}`, { authorId: UNKNOWN }, author)).body.message).to.equal(
          'Validation failed: body.authorId must be an existing author',
        );
        expect((await patch(`/articles/update/${article.id}`, { title: 'x' }, await client.bearer('member'))).status).to.equal(403);
      });
    });
  });
}

describe('A form update after a language was taken out of CMS_LANGUAGES (a restart over the same store)', () => {
  const running: TestService[] = [];
  afterEach(async () => {
    for (const api of running.splice(0)) await api.stop();
  });

  it('keeps the form’s texts in that language and refuses it where nothing has it', async () => {
    const database = new MingoDatabaseDouble();
    const start = async (languages: string) => {
      const api = await startTestService({ CMS_LANGUAGES: languages }, { mongoDatabase: database });
      running.push(api);
      return api;
    };
    const before = await start('en,fr');
    const form = await createForm(before, 'languages-left', { title: { en: 'Contact', fr: 'Contact' } });
    await before.stop();

    const after = await start('en');
    const deactivated = await after.call('PATCH', `/forms/update/${form.id}`, { body: { isActive: false } });
    expect(deactivated.status, JSON.stringify(deactivated.body)).to.equal(200);
    expect(deactivated.body.data.form.title).to.deep.equal({ en: 'Contact', fr: 'Contact' });
    const resent = await after.call('PATCH', `/forms/update/${form.id}`, { body: { title: form.title } });
    expect(resent.status, JSON.stringify(resent.body)).to.equal(200);
    const other = await after.call('POST', '/forms/create', { body: formBody('languages-new', { title: { fr: 'Nouveau' } }) });
    expect(other.body.message).to.equal('Validation failed: body.title.fr is not a configured language (en)');
  });
});
