// Scale scenarios (issue 7 §3): how an operation's throughput holds up as the data it touches
// grows. A scenario seeds `size` records through the API and returns the requests to load; the
// runner starts one service per size, seeds each, and loads them interleaved. Bulk seeding goes
// through the load generator (`bulk(requests, amount)`: autocannon on the load core, 64
// keep-alive connections, every answer checked), which is several times faster than a fetch
// loop; 1,000,000 reactions still take minutes. BENCH_SCALE_MAX caps the sizes for a quicker look.
// A scenario may load several `variants` on each size (scale-runner.mjs says how they compare).
import { approvedComment, createArticle, createForm, relationPair, replacingConnect, smallFormBody } from './seed-helpers.mjs';

const PAGE = 20;

/**
 * The variants of a filtered-pages scenario: each of `pages` (variant → path) read once to check it
 * lists a full page of `member` records that `wanted(record, variant)` keeps, then the request to load.
 */
async function fullPages(api, pages, member, wanted = () => true) {
  for (const [variant, path] of Object.entries(pages)) {
    const listed = (await api.call('GET', path))[member];
    if (listed.length !== PAGE || !listed.every((record) => wanted(record, variant))) throw new Error(`${variant}: listed ${listed.length} ${member}, wanted ${PAGE} of the filter`);
  }
  return { variants: Object.fromEntries(Object.entries(pages).map(([variant, path]) => [variant, api.request('GET', path)])) };
}

/** `size` submissions of the pair's source form, each connected to its one target submission (relationPair). */
async function connectedSources(api, { source, targetSubmission }, size, bulk) {
  await bulk(
    [
      api.request('POST', `/forms/${source.id}/submit`, { body: { values: { name: 'a source' } }, expect: [201], capture: { name: 'sid', path: ['data', 'submission', 'id'] } }),
      api.request('POST', '/forms/submission/{{sid}}/relations/ref/connect', { body: { relatedSubmissionId: targetSubmission.id }, expect: [200] }),
    ],
    2 * size,
  );
}

export const SCALE_SCENARIOS = [
  {
    name: 'reaction removal with N reactions on one article',
    requires: ['POST /articles/create', 'PUT /articles/{id}/reaction', 'DELETE /articles/{id}/reaction', 'GET /articles/getById/{id}'],
    sizes: [10, 10_000, 1_000_000],
    minRatio: 0.9,
    async seed(api, size, bulk) {
      const article = await createArticle(api, `Article with ${size} reactions`);
      const path = `/articles/${article.id}/reaction`;
      // N distinct users, two likes to one dislike.
      await bulk(
        ['like', 'like', 'dislike'].map((type) => api.request('PUT', path, { headers: { 'x-user-id': 'fan-{{seq}}' }, body: { type } })),
        size,
      );
      const { article: seeded } = await api.call('GET', `/articles/getById/${article.id}`);
      if (seeded.likes + seeded.dislikes !== size) throw new Error(`seeded ${seeded.likes + seeded.dislikes} reactions, wanted ${size}`);
      // Each connection adds a reaction and removes it, as a new user per pair: every DELETE removes one.
      const user = { 'x-user-id': 'bench-remover-{{round}}' };
      return [api.request('PUT', path, { headers: user, body: { type: 'like' } }), api.request('DELETE', path, { headers: user })];
    },
  },
  {
    name: 'comment summary with N reactions on one comment',
    requires: ['POST /articles/create', 'POST /articles/{id}/comments', 'PUT /articles/comments/{commentId}/approve', 'PUT /articles/comments/{commentId}/reaction', 'GET /articles/comments/{commentId}/reactionSummary'],
    sizes: [10, 10_000, 1_000_000],
    minRatio: 0.9,
    async seed(api, size, bulk) {
      const { comment } = await approvedComment(api);
      const path = `/articles/comments/${comment.id}/reaction`;
      await bulk(
        ['like', 'like', 'like', 'dislike'].map((type) => api.request('PUT', path, { headers: { 'x-user-id': 'fan-{{seq}}' }, body: { type } })),
        size,
      );
      // The reader has a reaction among the N, so the summary finds one.
      await api.call('PUT', path, { headers: { 'x-user-id': 'bench-reader' }, body: { type: 'like' } });
      const summary = await api.call('GET', `/articles/comments/${comment.id}/reactionSummary`, { headers: { 'x-user-id': 'bench-reader' } });
      if (summary.likes + summary.dislikes !== size + 1) throw new Error(`seeded ${summary.likes + summary.dislikes - 1} reactions, wanted ${size}`);
      return api.request('GET', `/articles/comments/${comment.id}/reactionSummary`, { headers: { 'x-user-id': 'bench-reader' } });
    },
  },
  {
    name: 'relation connect with N submissions related to one',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'POST /forms/submission/{id}/relations/{fieldName}/connect'],
    sizes: [10, 100_000],
    minRatio: 0.9,
    async seed(api, size, bulk) {
      const pair = await relationPair(api, `scale-${size}`);
      await connectedSources(api, pair, size, bulk);
      return replacingConnect(api, pair);
    },
  },
  {
    // Decision 0838: an erasure takes the submission's id out of the relations that hold it, found
    // by the id. The erased submissions are of the target form, whose relation holder (the source
    // form) has N submissions holding another target submission: none holds the erased ones.
    name: 'submit + erase of a form whose relation holder has N submissions',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'POST /forms/submission/{id}/relations/{fieldName}/connect', 'DELETE /forms/submission/{id}'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    async seed(api, size, bulk) {
      const pair = await relationPair(api, `erase-${size}`);
      await connectedSources(api, pair, size, bulk);
      const capture = { name: 'erased', path: ['data', 'submission', 'id'] };
      return [
        api.request('POST', `/forms/${pair.target.id}/submit`, { body: { values: { name: 'To be erased' } }, expect: [201], capture }),
        api.request('DELETE', '/forms/submission/{{erased}}', { headers: api.bearer('editor'), expect: [200] }),
      ];
    },
  },
  {
    // Issue 15 items 1 and 6, issue 18 item 7: keyset pages cost the same wherever they are, and
    // an export streams, so its cost per submission and the service's memory stay flat.
    name: 'N submissions of one form: first and last list page, CSV export',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'GET /forms/{id}/submissions', 'GET /forms/{id}/submissions/export'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    variants: {
      'first page': {},
      'last page': { against: 'first page' },
      // Memory is judged where holding the export would show: at 100,000 an export's CSV is ~9 MB
      // a request, ten in flight. A freshly started instance of 1,000 grows its heap by 40-90 MiB
      // under any load (its first page of 20 records too), which says nothing about the export.
      'CSV export': { perRecord: true, maxRssGrowthMiB: 64, rssJudgedFrom: 100_000 },
    },
    async seed(api, size, bulk) {
      const form = await createForm(api, { slug: `scale-submissions-${size}` });
      await bulk([api.request('POST', `/forms/${form.id}/submit`, { body: { values: { name: 'A submitter who wrote a line or two' } }, expect: [201] })], size);
      // The last page's cursor is the one the page before it answered: walk the list (cursors are opaque).
      const page = (cursor) => `/forms/${form.id}/submissions?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      let seen = 0;
      let lastCursor = null;
      for (let cursor = null; ; ) {
        const data = await api.call('GET', page(cursor));
        seen += data.submissions.length;
        if (!data.nextCursor) break;
        lastCursor = data.nextCursor;
        cursor = data.nextCursor;
      }
      if (seen !== size) throw new Error(`listed ${seen} submissions, seeded ${size}`);
      return {
        variants: {
          'first page': api.request('GET', page(null)),
          'last page': api.request('GET', page(lastCursor)),
          'CSV export': api.request('GET', `/forms/${form.id}/submissions/export?format=csv`),
        },
      };
    },
  },
  {
    // Issue 15 item 1 on the embedded store: a filtered page reads the filter's own order
    // (decision 0761), so an author's or a category's page costs what the unfiltered first page
    // costs, however many other articles the tenant has. The filtered articles are the oldest: a
    // page that walked the tenant's order would pass all N others first.
    name: "an author's and a category's articles among N others: filtered pages against the first page",
    requires: ['POST /authors/create', 'POST /categories/create', 'POST /articles/create', 'GET /articles/list'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    variants: {
      'first page': {},
      "an author's page": { against: 'first page' },
      "a category's page": { against: 'first page' },
    },
    async seed(api, size, bulk) {
      const editor = api.bearer('editor');
      const { author } = await api.call('POST', '/authors/create', { headers: editor, body: { name: `Scale author ${size}` }, expect: [201] });
      const { category } = await api.call('POST', '/categories/create', { headers: editor, body: { name: `Scale category ${size}` }, expect: [201] });
      // Titles of one length: every page answers the same bytes.
      const article = (title, filed) => api.request('POST', '/articles/create', { headers: editor, body: { title, content: 'Lorem ipsum '.repeat(20), ...filed }, expect: [201] });
      await bulk([article('Article by A.', { authorId: author.id })], PAGE);
      await bulk([article('Article in C.', { categoryId: category.id })], PAGE);
      await bulk([article('Article by --', {})], size);
      const pages = {
        'first page': `/articles/list?limit=${PAGE}`,
        "an author's page": `/articles/list?authorId=${author.id}&limit=${PAGE}`,
        "a category's page": `/articles/list?categoryId=${category.id}&limit=${PAGE}`,
      };
      return fullPages(api, pages, 'articles');
    },
  },
  {
    // The same for the form filters: a tenant's forms are kept per (isActive, visibility), and a
    // page filtered by one flag merges the two orders of its value (decision 0761). The matching
    // forms are the oldest, so a page that walked the tenant's forms would pass all N others.
    name: 'inactive and internal forms among N others: filtered pages against the first page',
    requires: ['POST /forms/create', 'GET /forms/list'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    variants: {
      'first page': {},
      'inactive forms': { against: 'first page' },
      'internal forms': { against: 'first page' },
      'inactive and internal': { against: 'first page' },
    },
    async seed(api, size, bulk) {
      // Slugs differ by a few characters at most (`{{seq}}`): a page's bytes by well under 1 %.
      const form = (tag, flags) => api.request('POST', '/forms/create', { body: smallFormBody({ slug: `scale-${size}-${tag}-{{seq}}`, ...flags }), expect: [201] });
      await bulk([form('m', { isActive: false, visibility: 'internal' })], PAGE);
      await bulk([form('o', {})], size);
      const pages = {
        'first page': `/forms/list?limit=${PAGE}`,
        'inactive forms': `/forms/list?isActive=false&limit=${PAGE}`,
        'internal forms': `/forms/list?visibility=internal&limit=${PAGE}`,
        'inactive and internal': `/forms/list?isActive=false&visibility=internal&limit=${PAGE}`,
      };
      return fullPages(api, pages, 'forms');
    },
  },
  {
    // A change that moves a record within the embedded store's list orders costs the same
    // wherever the record sits among N others: an order is kept in blocks (decision 0761), where
    // one array of 100,000 entries moved half of them on every remove or insert in its middle.
    // Each PATCH sets the form's visibility to one of the two values in turn, so most move the form
    // between the (isActive, visibility) orders, one of them holding the N others.
    name: 'a form in the middle of N others moved between filter orders by its PATCH',
    requires: ['POST /forms/create', 'PATCH /forms/update/{id}'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    async seed(api, size, bulk) {
      const others = (tag, amount) => bulk([api.request('POST', '/forms/create', { body: smallFormBody({ slug: `scale-${size}-${tag}-{{seq}}` }), expect: [201] })], amount);
      await others('older', size / 2);
      const form = await createForm(api, { slug: `scale-moving-${size}` });
      await others('newer', size / 2);
      return api.request('PATCH', `/forms/update/${form.id}`, { body: { visibility: '{{shown}}' }, cycle: [{ shown: 'internal' }, { shown: 'public' }] });
    },
  },
  {
    // Both article filters at once read the order of the pair (decision 0837): the author's 20
    // articles in the category are the oldest, behind N/2 newer ones by the author elsewhere and
    // N/2 in the category by no one, so a page that walked either order would pass N/2 first.
    name: "an author's articles in a category among N by either alone: the pair's page against the first page",
    requires: ['POST /authors/create', 'POST /categories/create', 'POST /articles/create', 'GET /articles/list'],
    sizes: [1_000, 100_000],
    minRatio: 0.9,
    variants: {
      'first page': {},
      "the author's in the category": { against: 'first page' },
    },
    async seed(api, size, bulk) {
      const editor = api.bearer('editor');
      const { author } = await api.call('POST', '/authors/create', { headers: editor, body: { name: `Pair author ${size}` }, expect: [201] });
      const { category } = await api.call('POST', '/categories/create', { headers: editor, body: { name: `Pair category ${size}` }, expect: [201] });
      const { category: elsewhere } = await api.call('POST', '/categories/create', { headers: editor, body: { name: `Elsewhere ${size}` }, expect: [201] });
      const article = (title, filed) => api.request('POST', '/articles/create', { headers: editor, body: { title, content: 'Lorem ipsum '.repeat(20), ...filed }, expect: [201] });
      await bulk([article('Article A in C', { authorId: author.id, categoryId: category.id })], PAGE);
      await bulk([article('Article A in E', { authorId: author.id, categoryId: elsewhere.id })], size / 2);
      await bulk([article('Article - in C', { categoryId: category.id })], size / 2);
      const pages = {
        'first page': `/articles/list?limit=${PAGE}`,
        "the author's in the category": `/articles/list?authorId=${author.id}&categoryId=${category.id}&limit=${PAGE}`,
      };
      return fullPages(api, pages, 'articles', (listed, variant) => variant === 'first page' || listed.title === 'Article A in C');
    },
  },
];
