// Scale scenarios (issue 7 §3): how an operation's throughput holds up as the data it touches
// grows. A scenario is a seed function (make `size` records through the API) and the requests to
// load; the runner starts one service per size, seeds each, and loads them interleaved. Every
// scenario needs routes colleagues are building; until /cms/openapi.json lists them the runner
// skips the scenario with a message. Seeding 1,000,000 reactions over HTTP takes minutes:
// BENCH_SCALE_MAX caps the sizes for a quicker look.
import { inParallel } from './bench-client.mjs';
import { approvedComment, createArticle, relationPair, submit } from './seed-helpers.mjs';

const SEED_PARALLEL = 64;

export const SCALE_SCENARIOS = [
  {
    name: 'reaction removal with N reactions on one article',
    requires: ['POST /articles/create', 'PUT /articles/{id}/reaction', 'DELETE /articles/{id}/reaction'],
    sizes: [10, 10_000, 1_000_000],
    minRatio: 0.9,
    async seed(api, size) {
      const article = await createArticle(api, `Article with ${size} reactions`);
      await inParallel(size, SEED_PARALLEL, (i) =>
        api.call('PUT', `/articles/${article.id}/reaction`, { headers: { 'x-user-id': `fan-${i}` }, body: { type: i % 3 ? 'like' : 'dislike' } }),
      );
      // Each connection adds the bench user's reaction and removes it, so every DELETE removes one.
      const user = { 'x-user-id': 'bench-remover' };
      return [
        api.request('PUT', `/articles/${article.id}/reaction`, { headers: user, body: { type: 'like' } }),
        api.request('DELETE', `/articles/${article.id}/reaction`, { headers: user }),
      ];
    },
  },
  {
    name: 'comment summary with N reactions on one comment',
    requires: ['POST /articles/create', 'POST /articles/{id}/comments', 'PUT /articles/comments/{commentId}/approve', 'PUT /articles/comments/{commentId}/reaction', 'GET /articles/comments/{commentId}/reactionSummary'],
    sizes: [10, 10_000, 1_000_000],
    minRatio: 0.9,
    async seed(api, size) {
      const { comment } = await approvedComment(api);
      await inParallel(size, SEED_PARALLEL, (i) =>
        api.call('PUT', `/articles/comments/${comment.id}/reaction`, { headers: { 'x-user-id': `fan-${i}` }, body: { type: i % 4 ? 'like' : 'dislike' } }),
      );
      return api.request('GET', `/articles/comments/${comment.id}/reactionSummary`, { headers: { 'x-user-id': 'fan-1' } });
    },
  },
  {
    name: 'relation connect with N submissions related to one',
    requires: ['POST /forms/create', 'POST /forms/{id}/submit', 'POST /forms/submission/{id}/relations/{fieldName}/connect'],
    sizes: [10, 100_000],
    minRatio: 0.9,
    async seed(api, size) {
      const { source, targetSubmission, sourceSubmission } = await relationPair(api, `scale-${size}`);
      await inParallel(size, SEED_PARALLEL, async (i) => {
        const related = await submit(api, source.id, { name: `source ${i}` });
        await api.call('POST', `/forms/submission/${related.id}/relations/ref/connect`, { body: { relatedSubmissionId: targetSubmission.id } });
      });
      return api.request('POST', `/forms/submission/${sourceSubmission.id}/relations/ref/connect`, { body: { relatedSubmissionId: targetSubmission.id } });
    },
  },
];
