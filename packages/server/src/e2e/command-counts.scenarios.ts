/**
 * The operations whose storage commands command-counts.int.spec.ts pins (issue 18 item 1): every
 * HTTP operation of CONTRACT §2 and its companions, on its success path and on its most common
 * refusal, with the exact commands it sends (sorted; `<command> <collection>`). The figures and the
 * semantic minimum of each are tabled in docs/operations.md ("Storage round trips").
 */
import { TEST_KEYS, type CallResult, type TestService } from '../testing/test-service.js';
import { engagementClient, guest, type Headers } from '../testing/engagement-client.js';
import { createForm, formBody, submitForm } from './form-requests.js';

export interface Fixtures {
  readonly api: TestService;
  readonly editor: Headers;
  /** A form with a multi-value relation field `clients` to `company`, and a flow to `company`. */
  readonly person: { id: string };
  readonly company: { id: string };
  readonly acme: { id: string };
  readonly ada: { id: string };
  readonly article: { id: string };
  readonly comment: { id: string };
  readonly guestCount: { value: number };
}

export interface Scenario {
  readonly route: string;
  readonly outcome: string;
  readonly status: number;
  /** Work done before counting starts (records the request needs). */
  readonly prepare?: (fixtures: Fixtures) => Promise<Record<string, string>>;
  readonly send: (fixtures: Fixtures, prepared: Record<string, string>) => Promise<CallResult>;
  readonly commands: readonly string[];
}

export const UNKNOWN_ID = '0123456789abcdef01234567';
const KEY = 'find api_keys';
const user = { 'x-user-id': 'counted-user' };

export async function createFixtures(api: TestService): Promise<Fixtures> {
  const client = engagementClient(api);
  const editor = await client.bearer('editor');
  const company = await createForm(api, 'company');
  const person = await createForm(api, 'person', {
    sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'N' } }, { name: 'clients', type: 'relation', label: { en: 'C' }, relation: { formId: company.id, multiple: true } }] }],
    flow: { nextFormId: company.id },
  });
  const acme = await submitForm(api, company.id, { name: 'Acme' });
  const ada = await submitForm(api, person.id, { name: 'Ada' });
  const article = await client.article();
  const comment = await client.comment(article.id);
  return { api, editor, person, company, acme, ada, article, comment, guestCount: { value: 0 } };
}

const nextGuest = (f: Fixtures) => guest(`counted-guest-${String((f.guestCount.value += 1)).padStart(4, '0')}`);

export const SCENARIOS: readonly Scenario[] = [
  { route: 'GET /metrics', outcome: 'scraped', status: 200, send: (f) => f.api.call('GET', `${f.api.service.url}/metrics`, { key: null }), commands: ['aggregate notification_outbox', 'aggregate webhook_deliveries'] },
  { route: 'GET /openapi.json', outcome: 'served', status: 200, send: (f) => f.api.call('GET', '/openapi.json', { key: null }), commands: [] },
  { route: 'any route', outcome: 'unknown API key', status: 401, send: (f) => f.api.call('GET', '/forms/getById/' + UNKNOWN_ID, { key: 'no-such-key-000000000' }), commands: [KEY] },
  // §2.1
  { route: 'PUT /reports/dashboardConfig', outcome: 'saved', status: 200, send: (f) => f.api.call('PUT', '/reports/dashboardConfig', { headers: user, body: { templateId: 'ops' } }), commands: [KEY, 'findAndModify dashboard_configs'] },
  { route: 'PUT /reports/dashboardConfig', outcome: 'Missing userId', status: 400, send: (f) => f.api.call('PUT', '/reports/dashboardConfig', { body: {} }), commands: [KEY] },
  {
    route: 'PUT /reports/dashboardConfig',
    outcome: 'saved (If-Match)',
    status: 200,
    prepare: async (f) => ({ tag: (await f.api.call('GET', '/reports/dashboardConfig', { headers: user })).headers.get('etag')! }),
    send: (f, p) => f.api.call('PUT', '/reports/dashboardConfig', { headers: { ...user, 'if-match': p.tag! }, body: { templateId: 'ops-2' } }),
    commands: [KEY, 'find dashboard_configs', 'findAndModify dashboard_configs'],
  },
  {
    route: 'PUT /reports/dashboardConfig',
    outcome: 'first saved (If-Match of the default)',
    status: 200,
    prepare: async (f) => ({ tag: (await f.api.call('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': 'counted-new-user' } })).headers.get('etag')! }),
    send: (f, p) => f.api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': 'counted-new-user', 'if-match': p.tag! }, body: { templateId: 'ops' } }),
    commands: [KEY, 'find dashboard_configs', 'insert dashboard_configs'],
  },
  { route: 'PUT /reports/dashboardConfig', outcome: 'Precondition failed', status: 412, send: (f) => f.api.call('PUT', '/reports/dashboardConfig', { headers: { ...user, 'if-match': '"stale"' }, body: { templateId: 'ops' } }), commands: [KEY, 'find dashboard_configs'] },
  { route: 'GET /reports/dashboardConfig', outcome: 'read', status: 200, send: (f) => f.api.call('GET', '/reports/dashboardConfig', { headers: user }), commands: [KEY, 'find dashboard_configs'] },
  { route: 'GET /reports/dashboardConfig', outcome: 'Missing userId', status: 400, send: (f) => f.api.call('GET', '/reports/dashboardConfig'), commands: [KEY] },
  // §2.2
  {
    route: 'DELETE /authors/delete/{id}',
    outcome: 'deleted',
    status: 200,
    prepare: async (f) => ({ id: (await f.api.call('POST', '/authors/create', { headers: f.editor, body: { name: 'Gone' } })).body.data.author.id }),
    send: (f, p) => f.api.call('DELETE', `/authors/delete/${p.id}`, { headers: f.editor }),
    commands: [KEY, 'update articles', 'findAndModify authors', 'update articles'],
  },
  {
    route: 'DELETE /authors/delete/{id}',
    outcome: 'deleted (If-Match)',
    status: 200,
    prepare: async (f) => {
      const id = (await f.api.call('POST', '/authors/create', { headers: f.editor, body: { name: 'Gone' } })).body.data.author.id;
      return { id, tag: (await f.api.call('GET', `/authors/getById/${id}`)).headers.get('etag')! };
    },
    send: (f, p) => f.api.call('DELETE', `/authors/delete/${p.id}`, { headers: { ...f.editor, 'if-match': p.tag! } }),
    commands: [KEY, 'find authors', 'findAndModify authors', 'update articles', 'findAndModify authors', 'update articles'],
  },
  { route: 'DELETE /authors/delete/{id}', outcome: 'Author not found', status: 404, send: (f) => f.api.call('DELETE', `/authors/delete/${UNKNOWN_ID}`, { headers: f.editor }), commands: [KEY, 'update articles', 'findAndModify authors'] },
  { route: 'POST /authors/create', outcome: 'created', status: 201, send: (f) => f.api.call('POST', '/authors/create', { headers: f.editor, body: { name: 'Ada' } }), commands: [KEY, 'insert authors'] },
  { route: 'POST /authors/create', outcome: 'validation', status: 400, send: (f) => f.api.call('POST', '/authors/create', { headers: f.editor, body: { name: '' } }), commands: [KEY] },
  {
    route: 'GET /authors/getById/{id}',
    outcome: 'read',
    status: 200,
    prepare: async (f) => ({ id: (await f.api.call('POST', '/authors/create', { headers: f.editor, body: { name: 'Read' } })).body.data.author.id }),
    send: (f, p) => f.api.call('GET', `/authors/getById/${p.id}`),
    commands: [KEY, 'find authors'],
  },
  { route: 'GET /authors/getById/{id}', outcome: 'Author not found', status: 404, send: (f) => f.api.call('GET', `/authors/getById/${UNKNOWN_ID}`), commands: [KEY, 'find authors'] },
  // §2.3
  { route: 'POST /forms/create', outcome: 'created (one relation, a flow)', status: 201, send: (f) => f.api.call('POST', '/forms/create', { body: formBody('counted-new', { flow: { nextFormId: f.company.id, previousFormId: f.person.id } }) }), commands: [KEY, 'find forms', 'find webhooks', 'insert forms'] },
  { route: 'POST /forms/create', outcome: 'Form slug already exists', status: 409, send: (f) => f.api.call('POST', '/forms/create', { body: formBody('company') }), commands: [KEY, 'find webhooks', 'insert forms'] },
  { route: 'GET /forms/getById/{id}', outcome: 'read', status: 200, send: (f) => f.api.call('GET', `/forms/getById/${f.person.id}`), commands: [KEY, 'find forms'] },
  { route: 'GET /forms/getById/{id}', outcome: 'Form not found', status: 404, send: (f) => f.api.call('GET', `/forms/getById/${UNKNOWN_ID}`), commands: [KEY, 'find forms'] },
  // §2.4
  { route: 'POST /ai/translate', outcome: 'translated', status: 200, send: (f) => f.api.call('POST', '/ai/translate', { body: { text: 'Hello', targetLanguage: 'fr' } }), commands: [KEY, 'find tenants', 'find ai_usage', 'findAndModify ai_usage'] },
  { route: 'POST /ai/translate', outcome: 'AI token quota exceeded', status: 429, send: (f) => f.api.call('POST', '/ai/translate', { key: 'counted-key-tenant-q-0001', body: { text: 'Hello', targetLanguage: 'fr' } }), commands: [KEY, 'find tenants', 'find ai_usage'] },
  // §2.5
  {
    route: 'POST /forms/submission/{id}/relations/{field}/connect',
    outcome: 'connected',
    status: 200,
    send: (f) => f.api.call('POST', `/forms/submission/${f.ada.id}/relations/clients/connect`, { body: { relatedSubmissionId: f.acme.id } }),
    commands: [KEY, 'find form_submissions', 'find forms', 'find webhooks', 'findAndModify form_submissions', 'find form_submissions'],
  },
  {
    route: 'POST /forms/submission/{id}/relations/{field}/connect',
    outcome: 'Related submission not found',
    status: 404,
    send: (f) => f.api.call('POST', `/forms/submission/${f.ada.id}/relations/clients/connect`, { body: { relatedSubmissionId: UNKNOWN_ID } }),
    commands: [KEY, 'find form_submissions', 'find forms'],
  },
  { route: 'POST /forms/{id}/submit', outcome: 'submitted', status: 201, send: (f) => f.api.call('POST', `/forms/${f.company.id}/submit`, { body: { values: { name: 'Beta' } } }), commands: [KEY, 'find forms', 'find forms', 'find webhooks', 'insert form_submissions'] },
  { route: 'POST /forms/{id}/submit', outcome: 'invalid values', status: 400, send: (f) => f.api.call('POST', `/forms/${f.company.id}/submit`, { body: { values: {} } }), commands: [KEY, 'find forms'] },
  { route: 'POST /forms/{id}/internal-submit', outcome: 'submitted', status: 201, send: (f) => f.api.call('POST', `/forms/${f.company.id}/internal-submit`, { headers: user, body: { values: { name: 'Gamma' } } }), commands: [KEY, 'find forms', 'find forms', 'find webhooks', 'insert form_submissions'] },
  { route: 'POST /forms/{id}/internal-submit', outcome: 'Form not found', status: 404, send: (f) => f.api.call('POST', `/forms/${UNKNOWN_ID}/internal-submit`, { headers: user, body: { values: { name: 'Gamma' } } }), commands: [KEY, 'find forms'] },
  { route: 'GET /forms/submission/{id}', outcome: 'read', status: 200, send: (f) => f.api.call('GET', `/forms/submission/${f.ada.id}`), commands: [KEY, 'find form_submissions'] },
  { route: 'GET /forms/submission/{id}', outcome: 'Submission not found', status: 404, send: (f) => f.api.call('GET', `/forms/submission/${UNKNOWN_ID}`), commands: [KEY, 'find form_submissions'] },
  // §2.6
  { route: 'GET /ai/repurpose/template', outcome: 'first read (provisions)', status: 200, send: (f) => f.api.call('GET', '/ai/repurpose/template'), commands: [KEY, 'findAndModify repurpose_templates'] },
  { route: 'GET /ai/repurpose/template', outcome: 'later read', status: 200, send: (f) => f.api.call('GET', '/ai/repurpose/template'), commands: [KEY, 'findAndModify repurpose_templates'] },
  { route: 'PUT /ai/repurpose/template', outcome: 'updated', status: 200, send: (f) => f.api.call('PUT', '/ai/repurpose/template', { headers: user, body: { defaults: { tone: 'casual' } } }), commands: [KEY, 'findAndModify repurpose_templates'] },
  {
    route: 'PUT /ai/repurpose/template',
    outcome: 'updated before any read (provisions)',
    status: 200,
    send: (f) => f.api.call('PUT', '/ai/repurpose/template', { key: TEST_KEYS.b, headers: user, body: { defaults: { tone: 'casual' } } }),
    commands: [KEY, 'findAndModify repurpose_templates', 'findAndModify repurpose_templates', 'findAndModify repurpose_templates'],
  },
  {
    route: 'PUT /ai/repurpose/template',
    outcome: 'updated (If-Match)',
    status: 200,
    prepare: async (f) => ({ tag: (await f.api.call('GET', '/ai/repurpose/template')).headers.get('etag')! }),
    send: (f, p) => f.api.call('PUT', '/ai/repurpose/template', { headers: { ...user, 'if-match': p.tag! }, body: { defaults: { tone: 'formal' } } }),
    commands: [KEY, 'find repurpose_templates', 'findAndModify repurpose_templates'],
  },
  { route: 'PUT /ai/repurpose/template', outcome: 'Precondition failed', status: 412, send: (f) => f.api.call('PUT', '/ai/repurpose/template', { headers: { ...user, 'if-match': '"stale"' }, body: { defaults: { tone: 'formal' } } }), commands: [KEY, 'find repurpose_templates'] },
  { route: 'PUT /ai/repurpose/template', outcome: 'Missing userId', status: 400, send: (f) => f.api.call('PUT', '/ai/repurpose/template', { body: { defaults: { tone: 'casual' } } }), commands: [KEY] },
  // §2.7
  { route: 'PUT /articles/{id}/reaction', outcome: 'saved (user)', status: 200, send: (f) => f.api.call('PUT', `/articles/${f.article.id}/reaction`, { headers: user, body: { type: 'like' } }), commands: [KEY, 'find articles', 'find webhooks', 'findAndModify articles', 'findAndModify reactions'] },
  { route: 'PUT /articles/{id}/reaction', outcome: 'saved (guest)', status: 200, send: (f) => f.api.call('PUT', `/articles/${f.article.id}/reaction`, { headers: nextGuest(f), body: { type: 'like' } }), commands: [KEY, 'find articles', 'find webhooks', 'findAndModify articles', 'findAndModify guest_rate_windows', 'findAndModify reactions'] },
  { route: 'PUT /articles/{id}/reaction', outcome: 'Article not found', status: 404, send: (f) => f.api.call('PUT', `/articles/${UNKNOWN_ID}/reaction`, { headers: user, body: { type: 'like' } }), commands: [KEY, 'find articles'] },
  { route: 'DELETE /articles/{id}/reaction', outcome: 'removed', status: 200, send: (f) => f.api.call('DELETE', `/articles/${f.article.id}/reaction`, { headers: user }), commands: [KEY, 'find articles', 'find webhooks', 'findAndModify articles', 'findAndModify reactions'] },
  { route: 'DELETE /articles/{id}/reaction', outcome: 'nothing to remove', status: 200, send: (f) => f.api.call('DELETE', `/articles/${f.article.id}/reaction`, { headers: user }), commands: [KEY, 'find articles', 'find webhooks', 'findAndModify reactions'] },
  { route: 'DELETE /articles/{id}/reaction', outcome: 'Article not found', status: 404, send: (f) => f.api.call('DELETE', `/articles/${UNKNOWN_ID}/reaction`, { headers: user }), commands: [KEY, 'find articles'] },
  { route: 'POST /categories/create', outcome: 'created (sub-category)', status: 201, prepare: async (f) => ({ id: (await engagementClient(f.api).category({ name: 'Top' })).id }), send: (f, p) => f.api.call('POST', '/categories/create', { headers: f.editor, body: { name: 'Sub', parentId: p.id } }), commands: [KEY, 'find categories', 'find categories', 'insert categories'] },
  { route: 'POST /categories/create', outcome: 'parent not found', status: 400, send: (f) => f.api.call('POST', '/categories/create', { headers: f.editor, body: { name: 'Sub', parentId: UNKNOWN_ID } }), commands: [KEY, 'find categories'] },
  { route: 'POST /articles/create', outcome: 'created (no references)', status: 201, send: (f) => f.api.call('POST', '/articles/create', { headers: f.editor, body: { title: 'Counted' } }), commands: [KEY, 'find webhooks', 'insert articles'] },
  { route: 'POST /articles/create', outcome: 'author not found', status: 400, send: (f) => f.api.call('POST', '/articles/create', { headers: f.editor, body: { title: 'Counted', authorId: UNKNOWN_ID } }), commands: [KEY, 'find authors'] },
  { route: 'GET /articles/getById/{id}', outcome: 'read', status: 200, send: (f) => f.api.call('GET', `/articles/getById/${f.article.id}`), commands: [KEY, 'find articles'] },
  { route: 'GET /articles/getById/{id}', outcome: 'Article not found', status: 404, send: (f) => f.api.call('GET', `/articles/getById/${UNKNOWN_ID}`), commands: [KEY, 'find articles'] },
  // §2.8
  { route: 'GET /articles/comments/{id}/reactionSummary', outcome: 'read', status: 200, send: (f) => f.api.call('GET', `/articles/comments/${f.comment.id}/reactionSummary`, { headers: user }), commands: [KEY, 'find comments', 'find reactions'] },
  { route: 'GET /articles/comments/{id}/reactionSummary', outcome: 'Comment not found', status: 404, send: (f) => f.api.call('GET', `/articles/comments/${UNKNOWN_ID}/reactionSummary`, { headers: user }), commands: [KEY, 'find comments'] },
  { route: 'POST /articles/{id}/comments', outcome: 'created (user)', status: 201, send: (f) => f.api.call('POST', `/articles/${f.article.id}/comments`, { headers: user, body: { content: 'Hi' } }), commands: [KEY, 'find articles', 'find articles', 'find webhooks', 'insert comments'] },
  { route: 'POST /articles/{id}/comments', outcome: 'created (guest)', status: 201, send: (f) => f.api.call('POST', `/articles/${f.article.id}/comments`, { headers: nextGuest(f), body: { content: 'Hi' } }), commands: [KEY, 'find articles', 'find articles', 'find webhooks', 'findAndModify guest_rate_windows', 'insert comments'] },
  { route: 'POST /articles/{id}/comments', outcome: 'Article not found', status: 404, send: (f) => f.api.call('POST', `/articles/${UNKNOWN_ID}/comments`, { headers: user, body: { content: 'Hi' } }), commands: [KEY, 'find articles'] },
  {
    route: 'PUT /articles/comments/{id}/approve',
    outcome: 'approved',
    status: 200,
    prepare: async (f) => ({ id: (await engagementClient(f.api).comment(f.article.id, { approve: false })).id }),
    send: (f, p) => f.api.call('PUT', `/articles/comments/${p.id}/approve`, { headers: f.editor }),
    commands: [KEY, 'find comments', 'find webhooks', 'findAndModify comments'],
  },
  { route: 'PUT /articles/comments/{id}/approve', outcome: 'Comment not found', status: 404, send: (f) => f.api.call('PUT', `/articles/comments/${UNKNOWN_ID}/approve`, { headers: f.editor }), commands: [KEY, 'find comments'] },
  { route: 'PUT /articles/comments/{id}/reaction', outcome: 'saved', status: 200, send: (f) => f.api.call('PUT', `/articles/comments/${f.comment.id}/reaction`, { headers: user, body: { type: 'dislike' } }), commands: [KEY, 'find comments', 'find articles', 'findAndModify reactions', 'findAndModify comments'] },
  { route: 'PUT /articles/comments/{id}/reaction', outcome: 'Comment not found', status: 404, send: (f) => f.api.call('PUT', `/articles/comments/${UNKNOWN_ID}/reaction`, { headers: user, body: { type: 'dislike' } }), commands: [KEY, 'find comments'] },
  { route: 'DELETE /articles/comments/{id}/reaction', outcome: 'removed', status: 200, send: (f) => f.api.call('DELETE', `/articles/comments/${f.comment.id}/reaction`, { headers: user }), commands: [KEY, 'find comments', 'find articles', 'findAndModify reactions', 'findAndModify comments'] },
  { route: 'DELETE /articles/comments/{id}/reaction', outcome: 'Comment not found', status: 404, send: (f) => f.api.call('DELETE', `/articles/comments/${UNKNOWN_ID}/reaction`, { headers: user }), commands: [KEY, 'find comments'] },
  // §2.9
  { route: 'GET /forms/getNextById/{id}', outcome: 'read (next form exists)', status: 200, send: (f) => f.api.call('GET', `/forms/getNextById/${f.person.id}`), commands: [KEY, 'find forms', 'find forms'] },
  { route: 'GET /forms/getNextById/{id}', outcome: 'Form not found', status: 404, send: (f) => f.api.call('GET', `/forms/getNextById/${UNKNOWN_ID}`), commands: [KEY, 'find forms'] },
];
