// The operation catalogue of the harness: one entry per loaded operation (the list
// and the GET companions). An entry names the routes it needs (as in /cms/openapi.json), its
// budget kind, and a seed that creates its data through the API and returns the request (or
// the short sequence) to load. Entries whose routes the service does not serve are skipped with
// a message. Every request of a load must answer its expected status (a load answered 4xx
// measures something else; the harness marks such a run invalid).
import { CONTENT_OPERATIONS } from './content-operations.mjs';
import { approvedComment, createArticle, createForm, formBody, RELATION_SOURCES, relationPair, replacingConnect } from './seed-helpers.mjs';

/**
 * Budgets: ratios against the Koa reference measured in the same run, or (`against: 'floor'`)
 * against the Koa reference plus the same provider call, the floor no translate can pass
 * (issue 18 item 4; the ratio to plain Koa stays in the table for information).
 */
export const BUDGETS = {
  read: { minRatio: 0.85, label: 'read' },
  write: { minRatio: 0.7, label: 'write' },
  translate: { minRatio: 0.9, against: 'floor', label: 'translate' },
};
/** p99 may be at most this multiple of the Koa reference's p99 at the same load. */
export const P99_MAX_FACTOR = 3;

const SLOT_TYPES = ['operationsOverview', 'tenantCapacity', 'contentTrend', 'summaryOverview', 'topArticles', 'reportIntelligence', 'contentSpotlight'];

/** A full dashboard layout, about 1 KB of JSON. */
export const dashboardBody = () => ({
  version: 2,
  templateId: 'bench_operations_layout',
  slots: SLOT_TYPES.map((type, i) => ({
    id: `bench_slot_${i + 1}`,
    type,
    enabled: i !== 5,
    span: i === 0 ? 'full' : 'half',
    settings: { range: i % 2 ? '2weeks' : '1month' },
  })),
});

/** A change to every platform of the repurpose template, about 1 KB of JSON. */
export const templatePatch = () => ({
  defaults: { language: 'en', tone: 'informative', length: 'medium' },
  platforms: Object.fromEntries(
    [
      ['linkedin', 'professional', 'long', 5],
      ['twitter', 'casual', 'short', 2],
      ['whatsapp', 'friendly', 'short', 0],
      ['instagram', 'enthusiastic', 'medium', 10],
    ].map(([platform, tone, length, maxHashtags]) => [
      platform,
      {
        tone,
        length,
        maxHashtags,
        ctaTemplate: `Read the full story on our site and tell us what you think about it on ${platform}.`,
        hashtagStyle: 'CamelCase tags drawn from the article topic, brand tag last',
      },
    ]),
  ),
});

/** The caller of an engagement request: the context's guest (guest id and a CAPTCHA token; the provider is `none`) or its user. */
const actorOf = ({ user, guest }) => (guest ? { 'x-guest-id': guest, 'x-captcha-token': 'bench-captcha-token' } : { 'x-user-id': user });
/** A guest's write past GUEST_REACTION_LIMIT in its window is refused with 429: expected, for guests only. */
const writeExpect = ({ guest }) => (guest ? [200, 429] : [200]);

const translateText = 'The quarterly report shows steady growth in every region. '.repeat(18);

/**
 * @typedef {{ method: string, path: string, headers: Record<string,string>, body?: string, expect: number[], capture?: { name: string, path: string[] }, fallback?: Record<string,string> }} LoadRequest
 * @typedef {{ name: string, label?: string, note?: string, kind: keyof typeof BUDGETS, requires: string[], seed: (api: any, ctx: { user: string, tag: string, guest?: string }) => Promise<LoadRequest | LoadRequest[]>, guests?: boolean, rejections?: (api: any, ctx: { user: string }) => LoadRequest[], growsStore?: boolean, rare?: boolean }} Operation
 * A seed answers one request, or a sequence that each connection sends in turn (a create and
 * the delete of what it created); `label` names such a row in the report and `note` says what
 * it measures.
 * `rejections` are requests the soak mixes in that must be refused with their `expect` status;
 * `guests` marks an operation the soak also sends as guests: its seed then gets `ctx.guest`
 * (a guest id) and acts as that guest (users get `ctx.user`).
 * `growsStore` marks an operation whose every call adds a record (the soak sends it rarely, as
 * the embedded store's growth would otherwise read as a leak); `rare` one the soak sends as rarely
 * for its weight (an export of a whole form).
 * The §6 content rows are in content-operations.mjs.
 * @type {Operation[]}
 */
const CONTRACT_OPERATIONS = [
  {
    name: 'GET /ai/repurpose/template',
    kind: 'read',
    requires: ['GET /ai/repurpose/template'],
    seed: async (api) => {
      await api.call('GET', '/ai/repurpose/template');
      return api.request('GET', '/ai/repurpose/template');
    },
    rejections: (api) => [api.request('GET', '/ai/repurpose/template', { headers: { 'x-api-key': 'not-a-key-of-anyone' }, expect: [401] })],
  },
  {
    name: 'PUT /ai/repurpose/template',
    kind: 'write',
    requires: ['PUT /ai/repurpose/template'],
    seed: async (api, { user }) => api.request('PUT', '/ai/repurpose/template', { headers: { 'x-user-id': user }, body: templatePatch() }),
    rejections: (api, { user }) => [
      api.request('PUT', '/ai/repurpose/template', { headers: { 'x-user-id': user }, body: { platforms: { twitter: { tone: 'loud' } } }, expect: [400] }),
    ],
  },
  {
    name: 'GET /reports/dashboardConfig',
    kind: 'read',
    requires: ['GET /reports/dashboardConfig'],
    seed: async (api, { user }) => {
      await api.call('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': user }, body: dashboardBody() });
      return api.request('GET', '/reports/dashboardConfig', { headers: { 'x-user-id': user } });
    },
    rejections: (api) => [api.request('GET', '/reports/dashboardConfig', { expect: [400] })],
  },
  {
    name: 'PUT /reports/dashboardConfig',
    kind: 'write',
    requires: ['PUT /reports/dashboardConfig'],
    seed: async (api, { user }) => api.request('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': user }, body: dashboardBody() }),
    rejections: (api, { user }) => [
      api.request('PUT', '/reports/dashboardConfig', { headers: { 'x-user-id': user }, body: { slots: 'many' }, expect: [400] }),
    ],
  },

  {
    // An author can be deleted once; a repeated DELETE is the 404 path. Each connection creates
    // an author and deletes the one it created (the id is captured from the 201), so every
    // DELETE deletes. Both need a bearer token of an admin or editor.
    name: 'DELETE /authors/delete/{id}',
    label: 'DELETE /authors/delete/{id} (create + delete pairs)',
    note: 'POST /authors/create then DELETE of the author just created, in turn (the id is taken from the 201). Both carry an editor bearer token. Ratio and p99 are over both requests.',
    kind: 'write',
    requires: ['POST /authors/create', 'DELETE /authors/delete/{id}'],
    seed: async (api) => {
      const bearer = api.bearer('editor');
      return [
        api.request('POST', '/authors/create', {
          headers: bearer,
          body: { name: 'Bench Author', email: 'bench.author@example.com', bio: 'Writes about benchmarks. '.repeat(8) },
          expect: [201],
          capture: { name: 'authorId', path: ['data', 'author', 'id'] },
        }),
        api.request('DELETE', '/authors/delete/{{authorId}}', { headers: bearer, fallback: { authorId: '0123456789abcdef01234567' } }),
      ];
    },
    rejections: (api) => [
      api.request('DELETE', '/authors/delete/0123456789abcdef01234567', { headers: api.bearer('editor'), expect: [404] }),
      api.request('DELETE', '/authors/delete/0123456789abcdef01234567', { headers: api.bearer('member'), expect: [403] }),
    ],
  },
  {
    name: 'POST /forms/create',
    kind: 'write',
    growsStore: true,
    requires: ['POST /forms/create'],
    seed: async (api, { tag, user }) => api.request('POST', '/forms/create', { headers: { 'x-user-id': user }, body: formBody(`bench-${tag}-{{seq}}`), expect: [201] }),
    rejections: (api, { user }) => [api.request('POST', '/forms/create', { headers: { 'x-user-id': user }, body: { slug: 'Not A Slug' }, expect: [400] })],
  },
  {
    name: 'GET /forms/getById/{id}',
    kind: 'read',
    requires: ['POST /forms/create', 'GET /forms/getById/{id}'],
    seed: async (api, { tag }) => {
      const form = await createForm(api, { slug: `bench-read-${tag}` });
      return api.request('GET', `/forms/getById/${form.id}`);
    },
    rejections: (api) => [api.request('GET', '/forms/getById/not-an-id', { expect: [400] })],
  },
  {
    name: 'GET /forms/getNextById/{id}',
    kind: 'read',
    requires: ['POST /forms/create', 'GET /forms/getNextById/{id}'],
    seed: async (api, { tag }) => {
      const next = await createForm(api, { slug: `bench-step-2-${tag}` });
      const first = await createForm(api, { slug: `bench-step-1-${tag}`, flow: { nextFormId: next.id } });
      return api.request('GET', `/forms/getNextById/${first.id}`);
    },
    rejections: (api) => [api.request('GET', '/forms/getNextById/0123456789abcdef01234567', { expect: [404] })],
  },
  {
    name: 'POST /forms/submission/{id}/relations/{fieldName}/connect',
    kind: 'write',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'POST /forms/submission/{id}/relations/{fieldName}/connect'],
    note: `Each request replaces the single value it connects to (${RELATION_SOURCES} submissions take turns, each alternating between two related ones): connecting the id a relation holds writes nothing (decision 0204).`,
    seed: async (api, { tag }) => replacingConnect(api, await relationPair(api, tag)),
    rejections: (api) => [
      api.request('POST', '/forms/submission/0123456789abcdef01234567/relations/ref/connect', { body: { relatedSubmissionId: 'nope' }, expect: [400] }),
    ],
  },
  {
    name: 'GET /forms/submission/{id}',
    kind: 'read',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'GET /forms/submission/{id}'],
    seed: async (api, { tag }) => {
      const { sourceSubmission } = await relationPair(api, `read-${tag}`);
      return api.request('GET', `/forms/submission/${sourceSubmission.id}`);
    },
  },
  {
    name: 'PUT /articles/{id}/reaction',
    kind: 'write',
    guests: true,
    requires: ['POST /articles/create', 'PUT /articles/{id}/reaction'],
    seed: async (api, ctx) => {
      const article = await createArticle(api);
      return api.request('PUT', `/articles/${article.id}/reaction`, { headers: actorOf(ctx), body: { type: 'like' }, expect: writeExpect(ctx) });
    },
    rejections: (api, { user }) => [
      api.request('PUT', '/articles/xyz/reaction', { headers: { 'x-user-id': user }, body: { type: 'like' }, expect: [400] }),
      // Guest checks in the contract's order: no CAPTCHA token 401, then no guest id 400.
      api.request('PUT', '/articles/0123456789abcdef01234567/reaction', { headers: { 'x-guest-id': 'guest-without-token' }, body: { type: 'like' }, expect: [401] }),
      api.request('PUT', '/articles/0123456789abcdef01234567/reaction', { headers: { 'x-captcha-token': 'a-token' }, body: { type: 'like' }, expect: [400] }),
    ],
  },
  {
    // Removing a reaction that is not there is a 200 that writes nothing; to measure a removal
    // each connection adds a reaction and then removes it, as a user of its own per round (so
    // connections never remove each other's), so every DELETE removes one. A guest (soak) keeps
    // one guest id: every new id would start a rate-limit window of its own.
    name: 'DELETE /articles/{id}/reaction',
    label: 'DELETE /articles/{id}/reaction (PUT + DELETE pairs)',
    note: 'PUT then DELETE by one user, a new user per pair: every DELETE removes a reaction (a DELETE with nothing to remove writes nothing). Ratio and p99 are over both requests.',
    kind: 'write',
    guests: true,
    requires: ['POST /articles/create', 'PUT /articles/{id}/reaction', 'DELETE /articles/{id}/reaction'],
    seed: async (api, ctx) => {
      const article = await createArticle(api);
      const actor = ctx.guest ? actorOf(ctx) : { 'x-user-id': `${ctx.user}-{{round}}` };
      return [
        api.request('PUT', `/articles/${article.id}/reaction`, { headers: actor, body: { type: 'dislike' }, expect: writeExpect(ctx) }),
        api.request('DELETE', `/articles/${article.id}/reaction`, { headers: actor, expect: writeExpect(ctx) }),
      ];
    },
    rejections: (api) => [api.request('DELETE', '/articles/0123456789abcdef01234567/reaction', { headers: { 'x-user-id': 'nobody' }, expect: [404] })],
  },
  {
    name: 'GET /articles/getById/{id}',
    kind: 'read',
    requires: ['POST /articles/create', 'GET /articles/getById/{id}'],
    seed: async (api) => {
      const article = await createArticle(api);
      return api.request('GET', `/articles/getById/${article.id}`);
    },
  },
  {
    name: 'PUT /articles/comments/{commentId}/reaction',
    kind: 'write',
    guests: true,
    requires: ['POST /articles/create', 'POST /articles/{id}/comments', 'PUT /articles/comments/{commentId}/approve', 'PUT /articles/comments/{commentId}/reaction'],
    seed: async (api, ctx) => {
      const { comment } = await approvedComment(api);
      return api.request('PUT', `/articles/comments/${comment.id}/reaction`, { headers: actorOf(ctx), body: { type: 'dislike' }, expect: writeExpect(ctx) });
    },
  },
  {
    name: 'GET /articles/comments/{commentId}/reactionSummary',
    kind: 'read',
    guests: true,
    requires: ['POST /articles/create', 'POST /articles/{id}/comments', 'PUT /articles/comments/{commentId}/approve', 'PUT /articles/comments/{commentId}/reaction', 'GET /articles/comments/{commentId}/reactionSummary'],
    seed: async (api, ctx) => {
      const { comment } = await approvedComment(api);
      // The caller has reacted, so the summary looks its reaction up and finds one.
      await api.call('PUT', `/articles/comments/${comment.id}/reaction`, { headers: actorOf(ctx), body: { type: 'like' } });
      // Reading needs no CAPTCHA: a guest sends only its guest id.
      const reader = ctx.guest ? { 'x-guest-id': ctx.guest } : actorOf(ctx);
      return api.request('GET', `/articles/comments/${comment.id}/reactionSummary`, { headers: reader });
    },
    rejections: (api) => [api.request('GET', '/articles/comments/zzz/reactionSummary', { expect: [400] })],
  },
  {
    name: 'POST /ai/translate',
    kind: 'translate',
    requires: ['POST /ai/translate'],
    seed: async (api, { user }) =>
      api.request('POST', '/ai/translate', { headers: { 'x-user-id': user }, body: { text: translateText, targetLanguage: 'fr', sourceLanguage: 'en' } }),
    rejections: (api, { user }) => [api.request('POST', '/ai/translate', { headers: { 'x-user-id': user }, body: { text: '' }, expect: [400] })],
  },
];

/** @type {Operation[]} */
export const OPERATIONS = [...CONTRACT_OPERATIONS, ...CONTENT_OPERATIONS];

/** `METHOD /path/{param}` for every operation of an OpenAPI document. */
export function servedRoutes(document) {
  const served = new Set();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item)) served.add(`${method.toUpperCase()} ${path}`);
  }
  return served;
}

export const missingRoutes = (operation, served) => operation.requires.filter((route) => !served.has(route));
