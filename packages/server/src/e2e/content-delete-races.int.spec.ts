/**
 * §6.4 `If-Match` on deletes is atomic (issue 15 item 4, docs/decisions/0765-atomic-if-match-on-deletes.md):
 * two requests that both checked the same version, racing, give exactly one winner and one 412,
 * and the loser changes nothing. The requests are held until both have read the record, so
 * the race is forced on every run instead of left to timing. Also: a relation connect held between
 * its check and its write while the erasure of its related submission runs (decision 0766), and
 * a comment or an article held the same way while its article or category is deleted (decision 0763).
 */
import { expect } from 'chai';
import { ArticleRepositoryToken, AuthorRepositoryToken, CategoryRepositoryToken, CommentRepositoryToken, FormRepositoryToken, SubmissionRepositoryToken, type ArticleRepository, type CategoryRepository, type CommentRepository, type FormRepository, type SubmissionRepository } from '@cms/core';
import { engagementClient, type EngagementClient } from '../testing/engagement-client.js';
import { holdCalls } from '../testing/held-calls.js';
import { startTestService, TEST_STORAGES, TEST_TENANTS, type CallResult, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

interface Readable {
  findById(tenantId: string, id: string): Promise<unknown>;
}

const statuses = (results: readonly CallResult[]) => results.map((res) => res.status);

for (const storage of TEST_STORAGES) {
  describe(`Deletes with If-Match under races (storage: ${storage})`, () => {
    let api: TestService;
    let client: EngagementClient;
    let editor: Record<string, string>;
    before(async () => {
      api = await startTestService({}, { storage });
      client = engagementClient(api);
      editor = await client.bearer('editor');
    });
    after(() => api.stop());

    const remove = (path: string, tag: string) => api.call('DELETE', path, { headers: { ...editor, 'if-match': tag } });
    const patch = (path: string, body: unknown, tag: string) => api.call('PATCH', path, { headers: { ...editor, 'if-match': tag }, body });
    /** Sends `request`, with the repository's next `method` call made only once the DELETE of `path` has answered: both answers. */
    const withDeleteBefore = async <R extends object>(repository: R, method: keyof R & string, path: string, request: () => Promise<CallResult>) => {
      const write = repository[method] as (...args: unknown[]) => Promise<unknown>;
      let deleted: CallResult | undefined;
      Object.assign(repository, {
        [method]: async (...args: unknown[]) => {
          deleted = await api.call('DELETE', path, { headers: editor });
          return write.apply(repository, args);
        },
      });
      try {
        const answer = await request();
        return [deleted!, answer] as const;
      } finally {
        Object.assign(repository, { [method]: write });
      }
    };
    /** Sends the requests together, with the repository's reads held until each has read. */
    const race = async (repository: Readable, requests: Array<() => Promise<CallResult>>) => {
      const release = holdCalls(repository, 'findById', requests.length);
      try {
        return await Promise.all(requests.map((send) => send()));
      } finally {
        release();
      }
    };
    const tagOf = async (path: string) => (await api.call('GET', path, { headers: editor })).headers.get('etag')!;
    const repository = (token: Parameters<TestService['service']['container']['get']>[0]) => api.service.container.get(token) as unknown as Readable;

    it('gives one 200 and one 412 to two deletes of a submission with the same If-Match', async () => {
      const form = await createForm(api, `race-erase-${storage}`);
      const submission = await submitForm(api, form.id, { name: 'x' });
      const tag = await tagOf(`/forms/submission/${submission.id}`);
      const path = `/forms/submission/${submission.id}`;
      const results = await race(repository(SubmissionRepositoryToken), [() => remove(path, tag), () => remove(path, tag)]);
      expect(statuses(results).sort()).to.deep.equal([200, 412]);
      expect(results.find((res) => res.status === 412)!.body.message).to.equal('Precondition failed');
      expect((await api.call('GET', path)).status).to.equal(404);
    });

    /** Sends `request`, with the repository's next `findById` (the request's own read) answered only once `meanwhile` has answered: both answers. */
    const withChangeAfterRead = async <R extends Readable>(repository: R, meanwhile: () => Promise<CallResult>, request: () => Promise<CallResult>) => {
      const read = repository.findById;
      let changed: CallResult | undefined;
      repository.findById = async function (this: R, tenantId: string, id: string) {
        const found = await read.call(this, tenantId, id);
        repository.findById = read;
        changed = await meanwhile();
        return found;
      };
      try {
        const answer = await request();
        return [changed!, answer] as const;
      } finally {
        repository.findById = read;
      }
    };

    it('answers 412 to an erasure with If-Match that loses to a connect on the submission, having changed nothing', async () => {
      const relation = (name: string, formId: string, multiple: boolean) => ({ name, type: 'relation', label: { en: name }, relation: { formId, multiple } });
      const company = await createForm(api, `race-claim-company-${storage}`);
      const person = await createForm(api, `race-claim-person-${storage}`, { sections: [{ fields: [relation('employer', company.id, false)] }] });
      const team = await createForm(api, `race-claim-team-${storage}`, { sections: [{ fields: [relation('members', person.id, true)] }] });
      const [employer, erased, holder] = [await submitForm(api, company.id, { name: 'Employer' }), await submitForm(api, person.id, {}), await submitForm(api, team.id, {})];
      const connect = (submissionId: string, fieldName: string, relatedSubmissionId: string) =>
        api.call('POST', `/forms/submission/${submissionId}/relations/${fieldName}/connect`, { body: { relatedSubmissionId } });
      // Another submission holds the one erased: the erasure's first step would take it out.
      expect((await connect(holder.id, 'members', erased.id)).status).to.equal(200);
      const path = `/forms/submission/${erased.id}`;
      const tag = await tagOf(path);
      const [connected, erasure] = await withChangeAfterRead(
        api.service.container.get(SubmissionRepositoryToken) as SubmissionRepository,
        () => connect(erased.id, 'employer', employer.id),
        () => remove(path, tag),
      );
      expect([connected.status, erasure.status]).to.deep.equal([200, 412]);
      expect(erasure.body.message).to.equal('Precondition failed');
      expect((await api.call('GET', path)).body.data.submission.relations).to.deep.equal({ employer: employer.id });
      expect((await api.call('GET', `/forms/submission/${holder.id}`)).body.data.submission.relations).to.deep.equal({ members: [erased.id] });
    });

    it('answers 412 to a delete of an inactive form with If-Match that loses to an update, having changed nothing', async () => {
      const form = await createForm(api, `race-inactive-${storage}`, { isActive: false });
      const path = `/forms/getById/${form.id}`;
      const tag = await tagOf(path);
      const [updated, deleted] = await withChangeAfterRead(
        api.service.container.get(FormRepositoryToken) as FormRepository,
        () => patch(`/forms/update/${form.id}`, { title: { en: 'Renamed' } }, tag),
        () => remove(`/forms/delete/${form.id}`, tag),
      );
      expect([updated.status, deleted.status]).to.deep.equal([200, 412]);
      const read = await api.call('GET', path, { headers: editor });
      expect([read.status, read.body.data.form.title]).to.deep.equal([200, { en: 'Renamed' }]);
    });

    it('answers 404 to a connect whose related submission was erased between its check and its write, leaving the relation as it was', async () => {
      const company = await createForm(api, `race-company-${storage}`);
      const relation = (name: string, multiple: boolean) => ({ name, type: 'relation', label: { en: name }, relation: { formId: company.id, multiple } });
      const person = await createForm(api, `race-person-${storage}`, { sections: [{ fields: [relation('employer', false), relation('clients', true)] }] });
      const [holder, kept] = [await submitForm(api, person.id, {}), await submitForm(api, company.id, { name: 'Kept' })];
      const connect = (fieldName: string, relatedSubmissionId: string) =>
        api.call('POST', `/forms/submission/${holder.id}/relations/${fieldName}/connect`, { body: { relatedSubmissionId } });
      for (const fieldName of ['employer', 'clients']) expect((await connect(fieldName, kept.id)).status).to.equal(200);
      const submissions = api.service.container.get(SubmissionRepositoryToken) as SubmissionRepository;
      const write = submissions.connectRelation;
      const erasures: CallResult[] = [];
      // Each connect is held before its write until the erasure of its related submission has answered.
      submissions.connectRelation = async function (this: SubmissionRepository, command) {
        erasures.push(await api.call('DELETE', `/forms/submission/${command.relatedId}`, { headers: editor }));
        return write.call(this, command);
      };
      const raced: CallResult[] = [];
      try {
        for (const fieldName of ['clients', 'employer']) raced.push(await connect(fieldName, (await submitForm(api, company.id, { name: 'Erased' })).id));
      } finally {
        submissions.connectRelation = write;
      }
      expect(statuses(erasures)).to.deep.equal([200, 200]);
      expect(statuses(raced)).to.deep.equal([404, 404]);
      expect(raced.map((res) => res.body.message)).to.deep.equal(['Related submission not found', 'Related submission not found']);
      const read = await api.call('GET', `/forms/submission/${holder.id}`);
      expect(read.body.data.submission.relations).to.deep.equal({ employer: kept.id, clients: [kept.id] });
    });

    it('leaves no relation naming a submission of a form deleted while a connect to it ran', async () => {
      const company = await createForm(api, `race-closing-${storage}`);
      const person = await createForm(api, `race-holder-${storage}`, {
        sections: [{ fields: [{ name: 'clients', type: 'relation', label: { en: 'Clients' }, relation: { formId: company.id, multiple: true } }] }],
      });
      const [holder, client] = [await submitForm(api, person.id, {}), await submitForm(api, company.id, { name: 'Going' })];
      const submissions = api.service.container.get(SubmissionRepositoryToken) as SubmissionRepository;
      const remove = submissions.deleteByIds;
      let connected: CallResult | undefined;
      // The delete's submissions are deleted only once a connect to one of them has answered.
      submissions.deleteByIds = async function (this: SubmissionRepository, tenantId, ids) {
        connected = await api.call('POST', `/forms/submission/${holder.id}/relations/clients/connect`, { body: { relatedSubmissionId: client.id } });
        return remove.call(this, tenantId, ids);
      };
      let deleted: CallResult;
      try {
        deleted = await api.call('DELETE', `/forms/delete/${company.id}`, { headers: editor });
      } finally {
        submissions.deleteByIds = remove;
      }
      expect([deleted.status, connected?.status]).to.deep.equal([200, 200]);
      expect(connected!.body.data.submission.relations).to.deep.equal({ clients: [client.id] });
      const read = await api.call('GET', `/forms/submission/${holder.id}`);
      expect(read.body.data.submission.relations).to.deep.equal({ clients: [] });
    });

    it('answers 404 to a comment whose article was deleted between its check and its write, leaving no comment', async () => {
      const article = await client.article({});
      const comments = api.service.container.get(CommentRepositoryToken) as CommentRepository;
      const [deleted, raced] = await withDeleteBefore(comments, 'insert', `/articles/delete/${article.id}`, () =>
        api.call('POST', `/articles/${article.id}/comments`, { headers: { 'x-user-id': 'late-commenter' }, body: { content: 'Too late' } }),
      );
      expect(deleted.status).to.equal(200);
      expect([raced.status, raced.body.message]).to.deep.equal([404, 'Article not found']);
      expect(await comments.listByArticle(TEST_TENANTS.a, article.id, undefined, { after: null, limit: 10 })).to.deep.equal([]);
    });

    it('creates an article without the category deleted between its check and its write', async () => {
      const category = await client.category({ name: `Short-lived ${storage}` });
      const articles = api.service.container.get(ArticleRepositoryToken) as ArticleRepository;
      const [deleted, created] = await withDeleteBefore(articles, 'insert', `/categories/delete/${category.id}`, () =>
        api.call('POST', '/articles/create', { headers: editor, body: { title: 'Late', categoryId: category.id } }),
      );
      expect([deleted.status, created.status]).to.deep.equal([200, 201]);
      expect(created.body.data.article.categoryId).to.equal(null);
      const read = await api.call('GET', `/articles/getById/${created.body.data.article.id}`);
      expect(read.body.data.article.categoryId).to.equal(null);
    });

    it('creates a sub-category top-level when its parent was deleted between its check and its write', async () => {
      const parent = await client.category({ name: `Short-lived parent ${storage}` });
      const categories = api.service.container.get(CategoryRepositoryToken) as CategoryRepository;
      const [deleted, created] = await withDeleteBefore(categories, 'insert', `/categories/delete/${parent.id}`, () =>
        api.call('POST', '/categories/create', { headers: editor, body: { name: 'Orphan', parentId: parent.id } }),
      );
      expect([deleted.status, created.status]).to.deep.equal([200, 201]);
      expect(created.body.data.category.parentId).to.equal(null);
      const read = await api.call('GET', `/categories/getById/${created.body.data.category.id}`);
      expect(read.body.data.category.parentId).to.equal(null);
    });

    it('gives one 200 and one 412 to two deletes of a comment with the same If-Match', async () => {
      const article = await client.article({});
      const comment = await client.comment(article.id);
      const tag = (await api.call('PUT', `/articles/comments/${comment.id}/approve`, { headers: editor })).headers.get('etag')!;
      const path = `/articles/comments/${comment.id}`;
      const results = await race(repository(CommentRepositoryToken), [() => remove(path, tag), () => remove(path, tag)]);
      expect(statuses(results).sort()).to.deep.equal([200, 412]);
      expect((await api.call('DELETE', path, { headers: editor })).status).to.equal(404);
    });

    it('gives one 200 and one 412 to two deletes of an article with the same If-Match', async () => {
      const article = await client.article({});
      const tag = await tagOf(`/articles/getById/${article.id}`);
      const path = `/articles/delete/${article.id}`;
      const results = await race(repository(ArticleRepositoryToken), [() => remove(path, tag), () => remove(path, tag)]);
      expect(statuses(results).sort()).to.deep.equal([200, 412]);
      expect((await api.call('GET', `/articles/getById/${article.id}`)).status).to.equal(404);
    });

    it('lets an author update and a delete with the same If-Match race: one wins, the loser changes nothing', async () => {
      const author = (await api.call('POST', '/authors/create', { headers: editor, body: { name: 'Ada' } })).body.data.author;
      const article = await client.article({ authorId: author.id });
      const tag = await tagOf(`/authors/getById/${author.id}`);
      const [updated, deleted] = await race(repository(AuthorRepositoryToken), [
        () => patch(`/authors/update/${author.id}`, { name: 'Ada L.' }, tag),
        () => remove(`/authors/delete/${author.id}`, tag),
      ]);
      expect([updated!.status, deleted!.status].sort()).to.deep.equal([200, 412]);
      const read = await api.call('GET', `/authors/getById/${author.id}`);
      const articleNow = (await api.call('GET', `/articles/getById/${article.id}`)).body.data.article;
      if (deleted!.status === 200) {
        expect([read.status, articleNow.authorId]).to.deep.equal([404, null]);
      } else {
        // The delete lost: the author keeps the update and its article still names it.
        expect([read.body.data.author.name, articleNow.authorId]).to.deep.equal(['Ada L.', author.id]);
      }
    });

    it('lets an article update and a delete with the same If-Match race: one wins, the loser changes nothing', async () => {
      const article = await client.article({});
      const comment = await client.comment(article.id);
      const tag = await tagOf(`/articles/getById/${article.id}`);
      const [updated, deleted] = await race(repository(ArticleRepositoryToken), [
        () => patch(`/articles/update/${article.id}`, { title: 'Renamed' }, tag),
        () => remove(`/articles/delete/${article.id}`, tag),
      ]);
      expect([updated!.status, deleted!.status].sort()).to.deep.equal([200, 412]);
      const read = await api.call('GET', `/articles/getById/${article.id}`);
      const summary = await api.call('GET', `/articles/comments/${comment.id}/reactionSummary`);
      if (deleted!.status === 200) {
        expect([read.status, summary.status]).to.deep.equal([404, 404]);
      } else {
        // The delete lost before its cascade: the article keeps the update and its comment.
        expect(read.body.data.article.title).to.equal('Renamed');
        expect(summary.status).to.equal(200);
      }
    });

    it('lets a category update and a delete with the same If-Match race: one wins, the loser changes nothing', async () => {
      const category = await client.category({ name: 'Raced' });
      const article = await client.article({ categoryId: category.id });
      const tag = await tagOf(`/categories/getById/${category.id}`);
      const [updated, deleted] = await race(repository(CategoryRepositoryToken), [
        () => patch(`/categories/update/${category.id}`, { name: 'Renamed' }, tag),
        () => remove(`/categories/delete/${category.id}`, tag),
      ]);
      expect([updated!.status, deleted!.status].sort()).to.deep.equal([200, 412]);
      const stored = (await api.call('GET', `/articles/getById/${article.id}`)).body.data.article;
      expect(stored.categoryId).to.equal(deleted!.status === 200 ? null : category.id);
    });

    it('gives one 200 and one 412 to two category deletes with the same If-Match; without one the loser is a 404', async () => {
      const category = await client.category({ name: 'Twice' });
      const tag = await tagOf(`/categories/getById/${category.id}`);
      const path = `/categories/delete/${category.id}`;
      const results = await race(repository(CategoryRepositoryToken), [() => remove(path, tag), () => remove(path, tag)]);
      expect(statuses(results).sort()).to.deep.equal([200, 412]);
      const blind = await client.category({ name: 'Blind' });
      const blindPath = `/categories/delete/${blind.id}`;
      const unconditional = await race(repository(CategoryRepositoryToken), [
        () => api.call('DELETE', blindPath, { headers: editor }),
        () => api.call('DELETE', blindPath, { headers: editor }),
      ]);
      expect(statuses(unconditional).sort()).to.deep.equal([200, 404]);
    });
  });
}
