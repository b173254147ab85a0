// The §6 content routes in the operation catalogue (issue 15 item 9, issue 18 item 7): lists and
// the export are reads, updates and deletes writes, with the same budgets as the others. The
// bench and the soak take them from OPERATIONS like every other row.
import { createArticle, createForm, submit } from './seed-helpers.mjs';

const PAGE = 20;
const UNKNOWN = '0123456789abcdef01234567';
/** Records in the export row's form: one keyset batch of the export is 500. */
const EXPORTED = Number(process.env.BENCH_EXPORT_SUBMISSIONS ?? 100);

/** Creates records with `make(i)` until the list at `path` holds a full first page (a soak's later users find it full). */
async function fillList(api, path, key, make, headers = {}) {
  const data = await api.call('GET', `${path}?limit=${PAGE}`, { headers });
  for (let i = data[key].length; i < PAGE; i++) await make(i);
}

/** A form of `count` submissions (seeded in parallel: the export row wants a few hundred). */
async function formWithSubmissions(api, slug, count) {
  const form = await createForm(api, { slug });
  for (let i = 0; i < count; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_, k) => submit(api, form.id, { name: `Submitter ${i + k}, who wrote a line or two` })));
  }
  return form;
}

/** A list row: the first page (`limit=20`) of a list a seed has filled. */
const listRow = (name, requires, seed, rejections) => ({ name, kind: 'read', requires, seed, ...(rejections ? { rejections } : {}) });

/** An update row: PATCH of a record the seed made, without If-Match (a repeated tag would be a 412 after the first), a fresh value per request. */
const updateRow = (name, requires, make, body) => ({
  name,
  label: `${name} (no If-Match)`,
  note: 'The same conditional write on the read `updatedAt` as with If-Match; a fixed tag would answer 412 after the first request, so none is sent. The body changes a value every request.',
  kind: 'write',
  requires,
  seed: async (api, ctx) => {
    const path = await make(api, ctx);
    return api.request('PATCH', path, { headers: api.bearer('editor'), body });
  },
  rejections: (api) => [api.request('PATCH', name.replace('PATCH ', '').replace('{id}', UNKNOWN), { headers: api.bearer('editor'), body, expect: [404] })],
});

/**
 * A delete row: each connection creates a record and deletes the one it created (the id captured
 * from the 201), so every DELETE deletes; a repeated DELETE would measure the 404.
 */
const pairRow = ({ name, pair, note, requires, create }) => ({
  name,
  label: `${name} (${pair} pairs)`,
  note: `${note} Ratio and p99 are over both requests.`,
  kind: 'write',
  requires: [...requires, name],
  seed: async (api, ctx) => {
    const { path, headers = {}, body, record } = await create(api, ctx);
    const capture = { name: 'recordId', path: ['data', record, 'id'] };
    return [
      api.request('POST', path, { headers, body, expect: [201], capture }),
      api.request('DELETE', name.replace('DELETE ', '').replace('{id}', '{{recordId}}'), { headers: api.bearer('editor'), fallback: { recordId: UNKNOWN } }),
    ];
  },
  rejections: (api) => [api.request('DELETE', name.replace('DELETE ', '').replace('{id}', UNKNOWN), { headers: api.bearer('editor'), expect: [404] })],
});

export const CONTENT_OPERATIONS = [
  listRow('GET /forms/list', ['POST /forms/create', 'GET /forms/list'], async (api, { tag }) => {
    await fillList(api, '/forms/list', 'forms', (i) => createForm(api, { slug: `bench-list-${tag}-${i}` }));
    return api.request('GET', `/forms/list?limit=${PAGE}`);
  }, (api) => [api.request('GET', '/forms/list?cursor=forged', { expect: [400] })]),
  listRow('GET /forms/{id}/submissions', ['POST /forms/create', 'POST /forms/{id}/submit', 'GET /forms/{id}/submissions'], async (api, { tag }) => {
    const form = await formWithSubmissions(api, `bench-subs-${tag}`, PAGE + 1);
    return api.request('GET', `/forms/${form.id}/submissions?limit=${PAGE}`);
  }, (api) => [api.request('GET', `/forms/${UNKNOWN}/submissions`, { expect: [404] })]),
  {
    name: 'GET /forms/{id}/submissions/export',
    label: `GET /forms/{id}/submissions/export (CSV of ${EXPORTED})`,
    note: `The CSV export of a form with ${EXPORTED} submissions (BENCH_EXPORT_SUBMISSIONS), streamed; the references answer as many bytes at once.`,
    kind: 'read',
    rare: true,
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'GET /forms/{id}/submissions/export'],
    seed: async (api, { tag }) => {
      const form = await formWithSubmissions(api, `bench-export-${tag}`, EXPORTED);
      return api.request('GET', `/forms/${form.id}/submissions/export?format=csv`);
    },
    // The form is looked up before the format is checked (decision 0787): an unknown form is 404
    // whatever the format, an id that is not one is 400.
    rejections: (api) => [
      api.request('GET', `/forms/${UNKNOWN}/submissions/export?format=xml`, { expect: [404] }),
      api.request('GET', '/forms/not-an-id/submissions/export?format=csv', { expect: [400] }),
    ],
  },
  listRow('GET /articles/list', ['POST /articles/create', 'GET /articles/list'], async (api) => {
    await fillList(api, '/articles/list', 'articles', (i) => createArticle(api, `Listed article ${i}`));
    return api.request('GET', `/articles/list?limit=${PAGE}`);
  }),
  listRow('GET /categories/list', ['POST /categories/create', 'GET /categories/list'], async (api, { tag }) => {
    const make = (i) => api.call('POST', '/categories/create', { headers: api.bearer('editor'), body: { name: `Bench category ${tag} ${i}` }, expect: [201] });
    await fillList(api, '/categories/list', 'categories', make);
    return api.request('GET', `/categories/list?limit=${PAGE}`);
  }),
  listRow('GET /authors/list', ['POST /authors/create', 'GET /authors/list'], async (api, { tag }) => {
    const make = (i) => api.call('POST', '/authors/create', { headers: api.bearer('editor'), body: { name: `Bench author ${tag} ${i}`, bio: 'Writes about benchmarks.' }, expect: [201] });
    await fillList(api, '/authors/list', 'authors', make);
    return api.request('GET', `/authors/list?limit=${PAGE}`);
  }),
  listRow('GET /articles/{id}/comments', ['POST /articles/create', 'POST /articles/{id}/comments', 'PUT /articles/comments/{commentId}/approve', 'GET /articles/{id}/comments'], async (api) => {
    const article = await createArticle(api, 'Bench article with comments');
    for (let i = 0; i < PAGE; i++) {
      const { comment } = await api.call('POST', `/articles/${article.id}/comments`, { headers: { 'x-user-id': `bench-commenter-${i}` }, body: { content: `Comment ${i} worth reading.` }, expect: [201] });
      await api.call('PUT', `/articles/comments/${comment.id}/approve`, { headers: api.bearer('editor') });
    }
    return api.request('GET', `/articles/${article.id}/comments?limit=${PAGE}`);
  }, (api) => [api.request('GET', `/articles/${UNKNOWN}/comments`, { expect: [404] })]),

  updateRow('PATCH /forms/update/{id}', ['POST /forms/create', 'PATCH /forms/update/{id}'], async (api, { tag, user }) => `/forms/update/${(await createForm(api, { slug: `bench-upd-${tag}-${user}` })).id}`, {
    description: { en: 'Tell us how we did, version {{seq}}.' },
  }),
  updateRow('PATCH /articles/update/{id}', ['POST /articles/create', 'PATCH /articles/update/{id}'], async (api) => `/articles/update/${(await createArticle(api)).id}`, { title: 'Bench article, edition {{seq}}' }),
  updateRow('PATCH /categories/update/{id}', ['POST /categories/create', 'PATCH /categories/update/{id}'], async (api, { tag, user }) => {
    const { category } = await api.call('POST', '/categories/create', { headers: api.bearer('editor'), body: { name: `Bench renamed ${tag} ${user}` }, expect: [201] });
    return `/categories/update/${category.id}`;
  }, { name: 'Bench category {{seq}}' }),
  updateRow('PATCH /authors/update/{id}', ['POST /authors/create', 'PATCH /authors/update/{id}'], async (api) => {
    const { author } = await api.call('POST', '/authors/create', { headers: api.bearer('editor'), body: { name: 'Bench author' }, expect: [201] });
    return `/authors/update/${author.id}`;
  }, { bio: 'Writes about benchmarks, take {{seq}}.' }),

  pairRow({
    name: 'DELETE /articles/delete/{id}',
    pair: 'create + delete',
    note: 'POST /articles/create then DELETE of the article just created (its cascade finds no comments), in turn, both with an editor bearer token.',
    requires: ['POST /articles/create'],
    create: async (api) => ({ path: '/articles/create', headers: api.bearer('editor'), body: { title: 'Bench article to delete', content: 'Lorem ipsum '.repeat(20) }, record: 'article' }),
  }),
  pairRow({
    name: 'DELETE /forms/submission/{id}',
    pair: 'submit + erase',
    note: 'POST /forms/{id}/submit then the erasure (editor bearer token) of the submission just made, in turn; its form has no relation holders.',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit'],
    create: async (api, { tag, user }) => ({ path: `/forms/${(await createForm(api, { slug: `bench-erase-${tag}-${user}` })).id}/submit`, body: { values: { name: 'To be erased' } }, record: 'submission' }),
  }),
];
