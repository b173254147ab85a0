/**
 * @cms/client (issue 16 item 4): its committed types are the ones the service's document
 * generates today, and each of the nine operations works through it against a started service.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CmsAnswerError, createCmsClient, listPages, type Article, type Author, type Category, type CmsClient, type Comment, type Form, type paths, type Submission, type Webhook } from '@cms/client';
import { chatCompletion, FakeChatCompletionsServer } from '@cms/adapter-ai/testing';
import { engagementClient } from '../testing/engagement-client.js';
import { startTestService, TEST_KEYS, type TestService } from '../testing/test-service.js';

const GENERATOR = new URL('../../../../scripts/generate-client.mjs', import.meta.url).href;

describe('@cms/client', () => {
  it('has committed types equal to what npm run client:generate writes now', async function () {
    this.timeout(30_000);
    const generator = (await import(GENERATOR)) as { GENERATED_FILE: string; generateClientTypes(): Promise<string> };
    const committed = readFileSync(generator.GENERATED_FILE, 'utf8');
    expect(committed === (await generator.generateClientTypes()), 'packages/client/src/generated/openapi.ts is stale: run npm run client:generate').to.equal(true);
  });

  describe('calling the nine operations', () => {
    let api: TestService;
    let provider: FakeChatCompletionsServer;
    let cms: CmsClient;
    let editor: CmsClient;
    before(async () => {
      provider = await FakeChatCompletionsServer.start();
      provider.script = () => ({ json: chatCompletion('Bonjour', 7) });
      api = await startTestService({ AI_BASE_URL: provider.baseUrl, AI_MODEL: 'client-model' });
      cms = createCmsClient({ baseUrl: api.baseUrl, apiKey: TEST_KEYS.a });
      editor = createCmsClient({ baseUrl: api.baseUrl, apiKey: TEST_KEYS.a, bearerToken: await api.token({ sub: 'editor-1', role: 'editor' }) });
    });
    after(async () => {
      await api.stop();
      await provider.close();
    });

    it('saves a dashboard layout (2.1)', async () => {
      const { data, response } = await cms.PUT('/reports/dashboardConfig', {
        params: { header: { 'x-user-id': 'client-user' } },
        body: { templateId: 'client', slots: [{ type: 'topArticles' }] },
      });
      expect(response.status).to.equal(200);
      expect(data?.data.dashboardConfig.templateId).to.equal('client');
    });

    it('deletes an author (2.2)', async () => {
      const created = await editor.POST('/authors/create', { body: { name: 'Ada' } });
      const id = created.data!.data.author.id;
      const { response } = await editor.DELETE('/authors/delete/{id}', { params: { path: { id } } });
      expect(response.status).to.equal(200);
    });

    it('creates forms, finds the next one (2.9) and connects submissions (2.5)', async () => {
      const field = (name: string) => ({ name, type: 'text' as const, label: { en: name }, required: true });
      const company = await cms.POST('/forms/create', { body: { title: { en: 'Company' }, slug: 'client-company', sections: [{ fields: [field('company')] }] } });
      expect(company.response.status).to.equal(201);
      const companyId = company.data!.data.form.id;
      // Every audience of the notifications is answered with its defaults (§2.3): typed as present.
      const { notifications } = company.data!.data.form;
      expect([notifications.email.admin.enabled, notifications.email.admin.recipients, notifications.email.submitter.field]).to.deep.equal([false, [], null]);
      expect([notifications.push.admin.enabled, notifications.push.submitter.enabled]).to.deep.equal([false, false]);
      const person = await cms.POST('/forms/create', {
        body: {
          title: { en: 'Person' },
          slug: 'client-person',
          sections: [{ fields: [field('name'), { name: 'employer', type: 'relation', label: { en: 'Employer' }, relation: { formId: companyId } }] }],
          flow: { nextFormId: companyId },
        },
      });
      const personId = person.data!.data.form.id;
      // A read's ETag sent back as If-None-Match: 304, no data and no error (§6.3).
      const read = await cms.GET('/forms/getById/{id}', { params: { path: { id: personId } } });
      const etag = read.response.headers.get('etag')!;
      const unchanged = await cms.GET('/forms/getById/{id}', { params: { path: { id: personId }, header: { 'If-None-Match': etag } } });
      expect([unchanged.response.status, unchanged.data, unchanged.error, unchanged.response.headers.get('etag')]).to.deep.equal([304, undefined, undefined, etag]);
      const next = await cms.GET('/forms/getNextById/{id}', { params: { path: { id: personId } } });
      expect(next.data?.data.nextForm?.id).to.equal(companyId);

      const submitted = await cms.POST('/forms/{id}/submit', { params: { path: { id: personId } }, body: { values: { name: 'Ada' } } });
      const employer = await cms.POST('/forms/{id}/submit', { params: { path: { id: companyId } }, body: { values: { company: 'Engines' } } });
      const connected = await cms.POST('/forms/submission/{id}/relations/{fieldName}/connect', {
        params: { path: { id: submitted.data!.data.submission.id, fieldName: 'employer' } },
        body: { relatedSubmissionId: employer.data!.data.submission.id },
      });
      expect(connected.response.status).to.equal(200);
      expect(connected.data?.data.submission.relations).to.deep.equal({ employer: employer.data!.data.submission.id });
    });

    it('pages a list to its end with a typed page size, filter and cursor (§6.1)', async () => {
      for (const slug of ['client-page-1', 'client-page-2', 'client-page-3']) {
        await cms.POST('/forms/create', { body: { title: { en: slug }, slug, sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] } });
      }
      const slugs: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: { limit: number; isActive: boolean; cursor?: string } = { limit: 2, isActive: true, ...(cursor === null ? {} : { cursor }) };
        const page = await cms.GET('/forms/list', { params: { query } });
        expect(page.response.status).to.equal(200);
        slugs.push(...page.data!.data.forms.map((form) => form.slug));
        cursor = page.data!.data.nextCursor;
        pages += 1;
      } while (cursor !== null);
      expect(slugs).to.include.members(['client-page-1', 'client-page-2', 'client-page-3']);
      expect(new Set(slugs).size).to.equal(slugs.length);
      expect(pages).to.equal(Math.ceil(slugs.length / 2));
      const inactive = await cms.GET('/forms/list', { params: { query: { isActive: false } } });
      expect(inactive.data?.data.forms).to.deep.equal([]);
    });

    it('subscribes a webhook with event names typed both ways (§7)', async () => {
      type EventName = paths['/webhooks/create']['post']['requestBody']['content']['application/json']['events'][number];
      const admin = createCmsClient({ baseUrl: api.baseUrl, apiKey: TEST_KEYS.a, bearerToken: await api.token({ sub: 'admin-1', role: 'admin' }) });
      const url = 'https://203.0.113.10/hooks/cms';
      const created = await admin.POST('/webhooks/create', { body: { url, events: ['form.submitted', 'comment.created'] } });
      expect(created.response.status).to.equal(201);
      const stored: EventName[] = created.data!.data.webhook.events;
      expect(stored).to.deep.equal(['form.submitted', 'comment.created']);
      // @ts-expect-error "*" beside an event type is refused (§7), by the types as by the service
      const mixed = await admin.POST('/webhooks/create', { body: { url, events: ['*', 'form.created'] } });
      expect([mixed.response.status, mixed.error?.message]).to.deep.equal([400, 'Validation failed: body.events must be ["*"] alone or a list of event types']);
      const all = await admin.POST('/webhooks/create', { body: { url, events: ['*'] } });
      expect(all.data?.data.webhook.events).to.deep.equal(['*']);
    });

    it('translates (2.4) and reads the repurpose template (2.6)', async () => {
      const translated = await cms.POST('/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr' } });
      expect(translated.data?.data.content).to.equal('Bonjour');
      const template = await cms.GET('/ai/repurpose/template');
      expect(template.response.status).to.equal(200);
      // Every member of a stored platform has a value (§2.6): typed without null.
      const { twitter } = template.data!.data.platforms;
      expect([twitter.tone.toUpperCase(), twitter.length, twitter.maxHashtags + 1, twitter.ctaTemplate.length > 0]).to.deep.equal(['CASUAL', 'short', 4, true]);
    });

    it('removes an article reaction (2.7) and totals a comment’s reactions (2.8)', async () => {
      const records = engagementClient(api);
      const article = await records.article();
      await cms.PUT('/articles/{id}/reaction', { params: { path: { id: article.id }, header: { 'x-user-id': 'reader-1' } }, body: { type: 'like' } });
      const removed = await cms.DELETE('/articles/{id}/reaction', { params: { path: { id: article.id }, header: { 'x-user-id': 'reader-1' } } });
      expect(removed.data?.data).to.include({ likes: 0 });
      const comment = await records.comment(article.id);
      await cms.PUT('/articles/comments/{commentId}/reaction', { params: { path: { commentId: comment.id }, header: { 'x-user-id': 'reader-1' } }, body: { type: 'dislike' } });
      const summary = await cms.GET('/articles/comments/{commentId}/reactionSummary', { params: { path: { commentId: comment.id }, header: { 'x-user-id': 'reader-1' } } });
      expect(summary.data?.data).to.include({ dislikes: 1, userReaction: 'dislike' });
    });

    it('walks a list’s pages with listPages, its filter kept, until nextCursor is null (§6.1)', async () => {
      const section = [{ fields: [{ name: 'a', type: 'text' as const, label: { en: 'A' } }] }];
      for (const slug of ['client-walk-1', 'client-walk-2', 'client-walk-3']) {
        await cms.POST('/forms/create', { body: { title: { en: slug }, slug, isActive: false, sections: section } });
      }
      const pages: Array<Array<{ slug: string; isActive: boolean }>> = [];
      for await (const forms of listPages(cms, '/forms/list', { query: { limit: 2, isActive: false } })) pages.push(forms);
      expect(pages.map((forms) => forms.map(({ slug, isActive }) => [slug, isActive]))).to.deep.equal([
        [['client-walk-3', false], ['client-walk-2', false]],
        [['client-walk-1', false]],
      ]);
    });

    it('takes only list routes to listPages, with their path parameters and filters but no cursor', () => {
      // A generator sends nothing until it is iterated: these only have to compile, or not.
      listPages(cms, '/articles/{id}/comments', { path: { id: '0123456789abcdef01234567' }, query: { status: 'all' }, header: { 'x-user-id': 'u1' } });
      listPages(cms, '/authors/list');
      // @ts-expect-error a single read is not a list
      listPages(cms, '/forms/getById/{id}', { path: { id: '0123456789abcdef01234567' } });
      // @ts-expect-error the submissions of which form
      listPages(cms, '/forms/{id}/submissions');
      // @ts-expect-error the cursor is the walk's
      listPages(cms, '/forms/list', { query: { cursor: 'abc' } });
      // @ts-expect-error not a filter of this list
      listPages(cms, '/forms/list', { query: { authorId: '0123456789abcdef01234567' } });
    });

    it('names each kind of record with the shape its list and its single read both answer (§6.1)', async () => {
      // Compile-time: each name and the single read's record are assignable both ways.
      type Read<P extends keyof paths, K extends string> = paths[P] extends { get: { responses: { 200: { content: { 'application/json': { data: infer D } } } } } }
        ? D extends Record<K, infer R> ? R : never
        : never;
      type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
      const same: [
        Same<Form, Read<'/forms/getById/{id}', 'form'>>,
        Same<Submission, Read<'/forms/submission/{id}', 'submission'>>,
        Same<Article, Read<'/articles/getById/{id}', 'article'>>,
        Same<Category, Read<'/categories/getById/{id}', 'category'>>,
        Same<Author, Read<'/authors/getById/{id}', 'author'>>,
        Same<Webhook, Read<'/webhooks/getById/{id}', 'webhook'>>,
      ] = [true, true, true, true, true, true];
      expect(same).to.deep.equal([true, true, true, true, true, true]);
      // And at run time, a record listed is the record read.
      const records = engagementClient(api);
      const article = await records.article();
      const [listedArticle]: Article[] = (await listPages(cms, '/articles/list', { query: { limit: 1 } }).next()).value!;
      const readArticle: Article = (await cms.GET('/articles/getById/{id}', { params: { path: { id: article.id } } })).data!.data.article;
      expect(listedArticle).to.deep.equal(readArticle);
      const comment = await records.comment(article.id);
      const [listedComment]: Comment[] = (await listPages(cms, '/articles/{id}/comments', { path: { id: article.id } }).next()).value!;
      expect([listedComment?.id, listedComment?.status]).to.deep.equal([comment.id, 'approved']);
    });

    it('ends a listPages walk with the error envelope of an error answer', async () => {
      const walk = listPages(cms, '/forms/{id}/submissions', { path: { id: '0123456789abcdef01234567' } });
      const thrown = await walk.next().then(() => undefined, (error: unknown) => error);
      expect(thrown).to.be.instanceOf(CmsAnswerError);
      const { status, envelope, message } = thrown as CmsAnswerError;
      expect([status, message, envelope]).to.deep.equal([404, 'Form not found', { success: false, statusCode: 404, message: 'Form not found', data: null }]);
    });
  });

  describe('on a deployment with its own CMS_LANGUAGES', () => {
    let api: TestService;
    let provider: FakeChatCompletionsServer;
    before(async () => {
      provider = await FakeChatCompletionsServer.start();
      provider.script = () => ({ json: chatCompletion('Ciao', 5) });
      api = await startTestService({ AI_BASE_URL: provider.baseUrl, AI_MODEL: 'client-model', CMS_LANGUAGES: 'en,it' });
    });
    after(async () => {
      await api.stop();
      await provider.close();
    });

    it('takes the deployment’s language codes, which the types cannot know (decision 0834)', async () => {
      const cms = createCmsClient({ baseUrl: api.baseUrl, apiKey: TEST_KEYS.a });
      const translated = await cms.POST('/ai/translate', { body: { text: 'Hello', targetLanguage: 'it', sourceLanguage: 'en' } });
      expect([translated.response.status, translated.data?.data.content]).to.deep.equal([200, 'Ciao']);
      const template = await cms.PUT('/ai/repurpose/template', { params: { header: { 'x-user-id': 'client-user' } }, body: { defaults: { language: 'it' } } });
      expect([template.response.status, template.data?.data.defaults.language]).to.deep.equal([200, 'it']);
      const refused = await cms.POST('/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr' } });
      expect([refused.response.status, refused.error?.message]).to.deep.equal([400, 'Validation failed: body.targetLanguage must be one of en, it']);
    });
  });
});
