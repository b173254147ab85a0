/**
 * The §6 content routes and the §7 webhook management routes whose storage commands
 * command-counts.int.spec.ts pins (issue 18 item 1), as command-counts.scenarios.ts does for §2:
 * each on its success path and its most common refusal. An update, delete or disconnect that
 * passes its checks sends `find webhooks` for its §7 event (decision 0783). Figures and minimums:
 * docs/operations.md.
 */
import { engagementClient } from '../testing/engagement-client.js';
import type { CallResult } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';
import { UNKNOWN_ID, type Fixtures, type Scenario } from './command-counts.scenarios.js';

const KEY = 'find api_keys';
const STALE = { 'if-match': '"stale"' };

/** The `ETag` a read of `path` answers. */
const tagOf = async (f: Fixtures, path: string) => (await f.api.call('GET', path, { headers: f.editor })).headers.get('etag')!;
const editorCall = (f: Fixtures, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<CallResult> =>
  f.api.call(method, path, { headers: { ...f.editor, ...headers }, ...(body === undefined ? {} : { body }) });
const adminCall = async (f: Fixtures, method: string, path: string, body?: unknown): Promise<CallResult> =>
  f.api.call(method, path, { headers: await engagementClient(f.api).bearer('admin'), ...(body === undefined ? {} : { body }) });
let made = 0;
const fresh = (name: string) => `${name}-${(made += 1)}`;
const newArticle = async (f: Fixtures) => ({ id: (await engagementClient(f.api).article({ title: fresh('Counted') })).id });
const newCategory = async (f: Fixtures) => ({ id: (await engagementClient(f.api).category({ name: fresh('Counted') })).id });
const newAuthor = async (f: Fixtures) => ({ id: (await editorCall(f, 'POST', '/authors/create', {}, { name: fresh('Counted') })).body.data.author.id as string });
const newSubmission = async (f: Fixtures) => ({ id: (await submitForm(f.api, f.company.id, { name: fresh('Gone') })).id as string });
/** A prepare step: a record made by `make`, and the `ETag` its read at `read(id)` answers. */
const tagged = (make: (f: Fixtures) => Promise<{ id: string }>, read: (id: string) => string) => async (f: Fixtures) => {
  const { id } = await make(f);
  return { id, tag: await tagOf(f, read(id)) };
};
/** `PATCH /<kind>/update/{id}` of a `name` with `If-Match`: the read, then the conditional write. */
const renameWithTag = (kind: string, make: (f: Fixtures) => Promise<{ id: string }>): Scenario => ({
  route: `PATCH /${kind}/update/{id}`,
  outcome: 'updated (If-Match)',
  status: 200,
  prepare: tagged(make, (id) => `/${kind}/getById/${id}`),
  send: (f, p) => editorCall(f, 'PATCH', `/${kind}/update/${p.id}`, { 'if-match': p.tag! }, { name: fresh('Counted') }),
  commands: [KEY, `find ${kind}`, `findAndModify ${kind}`],
});
/** A delete with `If-Match` of a record `make` creates; `read(id)` answers its tag. */
const deleteWithTag = (route: string, make: (f: Fixtures) => Promise<{ id: string }>, read: (id: string) => string, path: (id: string) => string, commands: string[]): Scenario => ({
  route,
  outcome: 'deleted (If-Match)',
  status: 200,
  prepare: tagged(make, read),
  send: (f, p) => editorCall(f, 'DELETE', path(p.id!), { 'if-match': p.tag! }),
  commands,
});
const newWebhook = async (f: Fixtures) => ({ id: (await adminCall(f, 'POST', '/webhooks/create', { url: 'https://127.0.0.1:9/counted', events: ['*'] })).body.data.webhook.id });

const lists: Scenario[] = [
  { route: 'GET /forms/list', outcome: 'first page', status: 200, send: (f) => f.api.call('GET', '/forms/list?limit=5'), commands: [KEY, 'find forms'] },
  { route: 'GET /forms/list', outcome: 'Invalid cursor', status: 400, send: (f) => f.api.call('GET', '/forms/list?cursor=forged'), commands: [KEY] },
  { route: 'GET /forms/{id}/submissions', outcome: 'first page', status: 200, send: (f) => editorCall(f, 'GET', `/forms/${f.company.id}/submissions?limit=5`), commands: [KEY, 'find form_submissions', 'find forms'] },
  { route: 'GET /forms/{id}/submissions', outcome: 'Form not found', status: 404, send: (f) => editorCall(f, 'GET', `/forms/${UNKNOWN_ID}/submissions`), commands: [KEY, 'find forms'] },
  { route: 'GET /forms/{id}/submissions/export', outcome: 'exported (one batch)', status: 200, send: (f) => editorCall(f, 'GET', `/forms/${f.company.id}/submissions/export?format=ndjson`), commands: [KEY, 'find form_submissions', 'find forms'] },
  { route: 'GET /forms/{id}/submissions/export', outcome: 'Form not found', status: 404, send: (f) => editorCall(f, 'GET', `/forms/${UNKNOWN_ID}/submissions/export`), commands: [KEY, 'find forms'] },
  { route: 'GET /articles/list', outcome: 'first page', status: 200, send: (f) => f.api.call('GET', '/articles/list?limit=5'), commands: [KEY, 'find articles'] },
  { route: 'GET /articles/list', outcome: 'Invalid cursor', status: 400, send: (f) => f.api.call('GET', '/articles/list?cursor=forged'), commands: [KEY] },
  { route: 'GET /categories/list', outcome: 'first page', status: 200, send: (f) => f.api.call('GET', '/categories/list?limit=5'), commands: [KEY, 'find categories'] },
  { route: 'GET /authors/list', outcome: 'first page', status: 200, send: (f) => f.api.call('GET', '/authors/list?limit=5'), commands: [KEY, 'find authors'] },
  { route: 'GET /articles/{id}/comments', outcome: 'first page', status: 200, send: (f) => f.api.call('GET', `/articles/${f.article.id}/comments?limit=5`), commands: [KEY, 'find articles', 'find comments'] },
  { route: 'GET /articles/{id}/comments', outcome: 'Article not found', status: 404, send: (f) => f.api.call('GET', `/articles/${UNKNOWN_ID}/comments`), commands: [KEY, 'find articles'] },
];

const reads: Scenario[] = [
  { route: 'GET /forms/getBySlug/{slug}', outcome: 'read', status: 200, send: (f) => f.api.call('GET', '/forms/getBySlug/company'), commands: [KEY, 'find forms'] },
  { route: 'GET /forms/getBySlug/{slug}', outcome: 'Form not found', status: 404, send: (f) => f.api.call('GET', '/forms/getBySlug/no-such-form'), commands: [KEY, 'find forms'] },
  { route: 'GET /categories/getById/{id}', outcome: 'read', status: 200, prepare: newCategory, send: (f, p) => f.api.call('GET', `/categories/getById/${p.id}`), commands: [KEY, 'find categories'] },
  { route: 'GET /categories/getById/{id}', outcome: 'Category not found', status: 404, send: (f) => f.api.call('GET', `/categories/getById/${UNKNOWN_ID}`), commands: [KEY, 'find categories'] },
];

const updates: Scenario[] = [
  {
    route: 'PATCH /forms/update/{id}',
    outcome: 'updated (If-Match)',
    status: 200,
    prepare: async (f) => ({ tag: await tagOf(f, `/forms/getById/${f.company.id}`) }),
    send: (f, p) => editorCall(f, 'PATCH', `/forms/update/${f.company.id}`, { 'if-match': p.tag! }, { description: { en: fresh('Counted') } }),
    commands: [KEY, 'find webhooks', 'find forms', 'findAndModify forms'],
  },
  { route: 'PATCH /forms/update/{id}', outcome: 'Precondition failed', status: 412, send: (f) => editorCall(f, 'PATCH', `/forms/update/${f.company.id}`, STALE, { description: { en: 'x' } }), commands: [KEY, 'find forms'] },
  {
    route: 'PATCH /articles/update/{id}',
    outcome: 'updated (If-Match)',
    status: 200,
    prepare: async (f) => ({ tag: await tagOf(f, `/articles/getById/${f.article.id}`) }),
    send: (f, p) => editorCall(f, 'PATCH', `/articles/update/${f.article.id}`, { 'if-match': p.tag! }, { title: fresh('Counted') }),
    commands: [KEY, 'find webhooks', 'find articles', 'find articles', 'findAndModify articles'],
  },
  { route: 'PATCH /articles/update/{id}', outcome: 'Precondition failed', status: 412, send: (f) => editorCall(f, 'PATCH', `/articles/update/${f.article.id}`, STALE, { title: 'x' }), commands: [KEY, 'find articles'] },
  renameWithTag('categories', newCategory),
  {
    route: 'PATCH /categories/update/{id}',
    outcome: 'moved under a parent',
    status: 200,
    prepare: async (f) => ({ id: (await newCategory(f)).id, parentId: (await newCategory(f)).id }),
    send: (f, p) => editorCall(f, 'PATCH', `/categories/update/${p.id}`, {}, { parentId: p.parentId }),
    // Read, the parent and the category's own sub-categories checked before the write and again
    // after it, the articles refiled (two updateMany), the category read again (decision 0763).
    commands: [KEY, ...Array<string>(6).fill('find categories'), 'findAndModify categories', 'update articles', 'update articles'],
  },
  { route: 'PATCH /categories/update/{id}', outcome: 'Category not found', status: 404, send: (f) => editorCall(f, 'PATCH', `/categories/update/${UNKNOWN_ID}`, {}, { name: 'x' }), commands: [KEY, 'find categories'] },
  renameWithTag('authors', newAuthor),
  { route: 'PATCH /authors/update/{id}', outcome: 'Author not found', status: 404, send: (f) => editorCall(f, 'PATCH', `/authors/update/${UNKNOWN_ID}`, {}, { name: 'x' }), commands: [KEY, 'find authors'] },
];

const deletes: Scenario[] = [
  {
    route: 'DELETE /forms/delete/{id}',
    outcome: 'deleted (one submission)',
    status: 200,
    prepare: async (f) => {
      const form = await createForm(f.api, fresh('counted-gone'));
      await submitForm(f.api, form.id, { name: 'x' });
      return { id: form.id };
    },
    send: (f, p) => editorCall(f, 'DELETE', `/forms/delete/${p.id}`),
    commands: [KEY, 'find webhooks', 'delete form_submissions', 'delete form_submissions', 'delete notification_outbox', 'delete notification_outbox', 'find forms', 'find forms', 'find forms', 'findAndModify forms', 'findAndModify forms'],
  },
  { route: 'DELETE /forms/delete/{id}', outcome: 'Form not found', status: 404, send: (f) => editorCall(f, 'DELETE', `/forms/delete/${UNKNOWN_ID}`), commands: [KEY, 'find forms'] },
  deleteWithTag('DELETE /forms/submission/{id}', newSubmission, (id) => `/forms/submission/${id}`, (id) => `/forms/submission/${id}`, [KEY, 'find webhooks', 'delete notification_outbox', 'delete notification_outbox', 'find form_submissions', 'find forms', 'findAndModify form_submissions', 'update form_submissions', 'update form_submissions', 'update form_submissions', 'update form_submissions', 'update form_submissions']),
  { route: 'DELETE /forms/submission/{id}', outcome: 'Submission not found', status: 404, send: (f) => editorCall(f, 'DELETE', `/forms/submission/${UNKNOWN_ID}`), commands: [KEY, 'find form_submissions'] },
  { route: 'DELETE /articles/delete/{id}', outcome: 'deleted', status: 200, prepare: newArticle, send: (f, p) => editorCall(f, 'DELETE', `/articles/delete/${p.id}`), commands: [KEY, 'find webhooks', 'delete comments', 'delete comments', 'delete reactions', 'delete reactions', 'find articles', 'find comments', 'find comments', 'findAndModify articles'] },
  deleteWithTag('DELETE /articles/delete/{id}', newArticle, (id) => `/articles/getById/${id}`, (id) => `/articles/delete/${id}`, [KEY, 'find webhooks', 'delete comments', 'delete comments', 'delete reactions', 'delete reactions', 'find articles', 'find comments', 'find comments', 'findAndModify articles', 'findAndModify articles']),
  { route: 'DELETE /articles/delete/{id}', outcome: 'Article not found', status: 404, send: (f) => editorCall(f, 'DELETE', `/articles/delete/${UNKNOWN_ID}`), commands: [KEY, 'find articles'] },
  { route: 'DELETE /categories/delete/{id}', outcome: 'deleted', status: 200, prepare: newCategory, send: (f, p) => editorCall(f, 'DELETE', `/categories/delete/${p.id}`), commands: [KEY, 'find categories', 'find categories', 'find categories', 'findAndModify categories', 'update articles', 'update articles', 'update articles', 'update articles'] },
  deleteWithTag('DELETE /categories/delete/{id}', newCategory, (id) => `/categories/getById/${id}`, (id) => `/categories/delete/${id}`, [KEY, 'find categories', 'find categories', 'find categories', 'findAndModify categories', 'findAndModify categories', 'update articles', 'update articles', 'update articles', 'update articles']),
  {
    route: 'DELETE /categories/delete/{id}',
    outcome: 'Category has sub-categories',
    status: 409,
    prepare: async (f) => {
      const { id } = await newCategory(f);
      await engagementClient(f.api).category({ name: fresh('Sub'), parentId: id });
      return { id };
    },
    send: (f, p) => editorCall(f, 'DELETE', `/categories/delete/${p.id}`),
    commands: [KEY, 'find categories', 'find categories'],
  },
  {
    route: 'DELETE /articles/comments/{id}',
    outcome: 'deleted',
    status: 200,
    prepare: async (f) => ({ id: (await engagementClient(f.api).comment(f.article.id)).id }),
    send: (f, p) => editorCall(f, 'DELETE', `/articles/comments/${p.id}`),
    commands: [KEY, 'find webhooks', 'delete reactions', 'delete reactions', 'find comments', 'findAndModify comments'],
  },
  { route: 'DELETE /articles/comments/{id}', outcome: 'Comment not found', status: 404, send: (f) => editorCall(f, 'DELETE', `/articles/comments/${UNKNOWN_ID}`), commands: [KEY, 'find comments'] },
  {
    route: 'POST /forms/submission/{id}/relations/{field}/disconnect',
    outcome: 'disconnected',
    status: 200,
    send: (f) => f.api.call('POST', `/forms/submission/${f.ada.id}/relations/clients/disconnect`, { body: { relatedSubmissionId: f.acme.id } }),
    commands: [KEY, 'find webhooks', 'find form_submissions', 'find forms', 'findAndModify form_submissions'],
  },
  {
    route: 'POST /forms/submission/{id}/relations/{field}/disconnect',
    outcome: 'not connected',
    status: 200,
    send: (f) => f.api.call('POST', `/forms/submission/${f.ada.id}/relations/clients/disconnect`, { body: { relatedSubmissionId: UNKNOWN_ID } }),
    // An id the field does not hold is looked up (another form's is 400, as for connect); the
    // store then tries the list and the single value, and reads the submission as it is.
    commands: [KEY, 'find webhooks', 'find form_submissions', 'find form_submissions', 'find form_submissions', 'find forms', 'findAndModify form_submissions', 'findAndModify form_submissions'],
  },
  {
    route: 'POST /forms/submission/{id}/relations/{field}/disconnect',
    outcome: 'Submission not found',
    status: 404,
    send: (f) => f.api.call('POST', `/forms/submission/${UNKNOWN_ID}/relations/clients/disconnect`, { body: { relatedSubmissionId: f.acme.id } }),
    commands: [KEY, 'find form_submissions'],
  },
];

const webhooks: Scenario[] = [
  { route: 'POST /webhooks/create', outcome: 'created', status: 201, send: (f) => adminCall(f, 'POST', '/webhooks/create', { url: 'https://127.0.0.1:9/new', events: ['form.submitted'] }), commands: [KEY, 'find webhooks', 'insert webhooks'] },
  { route: 'POST /webhooks/create', outcome: 'validation', status: 400, send: (f) => adminCall(f, 'POST', '/webhooks/create', { url: 'ftp://hooks.example.com/', events: ['*'] }), commands: [KEY] },
  { route: 'GET /webhooks/list', outcome: 'first page', status: 200, send: (f) => adminCall(f, 'GET', '/webhooks/list?limit=5'), commands: [KEY, 'find webhooks'] },
  { route: 'GET /webhooks/getById/{id}', outcome: 'read', status: 200, prepare: newWebhook, send: (f, p) => adminCall(f, 'GET', `/webhooks/getById/${p.id}`), commands: [KEY, 'find webhooks'] },
  { route: 'GET /webhooks/getById/{id}', outcome: 'Webhook not found', status: 404, send: (f) => adminCall(f, 'GET', `/webhooks/getById/${UNKNOWN_ID}`), commands: [KEY, 'find webhooks'] },
  { route: 'PATCH /webhooks/update/{id}', outcome: 'updated', status: 200, prepare: newWebhook, send: (f, p) => adminCall(f, 'PATCH', `/webhooks/update/${p.id}`, { enabled: false }), commands: [KEY, 'find webhooks', 'findAndModify webhooks'] },
  { route: 'PATCH /webhooks/update/{id}', outcome: 'Webhook not found', status: 404, send: (f) => adminCall(f, 'PATCH', `/webhooks/update/${UNKNOWN_ID}`, { enabled: false }), commands: [KEY, 'find webhooks'] },
  { route: 'DELETE /webhooks/delete/{id}', outcome: 'deleted', status: 200, prepare: newWebhook, send: (f, p) => adminCall(f, 'DELETE', `/webhooks/delete/${p.id}`), commands: [KEY, 'delete webhook_deliveries', 'findAndModify webhooks', 'delete webhook_deliveries'] },
  { route: 'DELETE /webhooks/delete/{id}', outcome: 'Webhook not found', status: 404, send: (f) => adminCall(f, 'DELETE', `/webhooks/delete/${UNKNOWN_ID}`), commands: [KEY, 'delete webhook_deliveries', 'findAndModify webhooks'] },
  { route: 'GET /webhooks/{id}/deliveries', outcome: 'first page', status: 200, prepare: newWebhook, send: (f, p) => adminCall(f, 'GET', `/webhooks/${p.id}/deliveries`), commands: [KEY, 'find webhook_deliveries', 'find webhooks'] },
  { route: 'GET /webhooks/{id}/deliveries', outcome: 'Webhook not found', status: 404, send: (f) => adminCall(f, 'GET', `/webhooks/${UNKNOWN_ID}/deliveries`), commands: [KEY, 'find webhooks'] },
];

/** §6 then §7, in the order of docs/operations.md. */
export const CONTENT_SCENARIOS: readonly Scenario[] = [...lists, ...reads, ...updates, ...deletes, ...webhooks];
