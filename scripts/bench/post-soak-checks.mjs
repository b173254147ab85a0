// Checks run on the service after the soak, once no request is in flight, in this order. Each
// names the routes it needs and is skipped with a message when /cms/openapi.json lacks them.
// `run(service, { receiver, webhooks })`: the soak's webhook receiver and registered webhooks.
import { inParallel } from './bench-client.mjs';
import { createArticle } from './seed-helpers.mjs';
import { checkSoakWebhooks, WEBHOOK_ROUTES } from './soak-webhooks.mjs';

export const POST_SOAK_CHECKS = [
  {
    // Reaction drift: totals must equal the reactions that exist, whatever the interleaving.
    // 200 users react concurrently (like/dislike switches and removals, many rounds), then each
    // settles on `like`; the article must then show exactly 200 likes and 0 dislikes.
    name: 'reaction totals match the reactions after concurrent churn',
    requires: ['POST /articles/create', 'PUT /articles/{id}/reaction', 'DELETE /articles/{id}/reaction', 'GET /articles/getById/{id}'],
    async run(service) {
      const api = service.clients[0];
      const article = await createArticle(api, 'Soak drift probe');
      const users = 200;
      const path = `/articles/${article.id}/reaction`;
      await inParallel(users * 10, 50, async (i) => {
        const user = { 'x-user-id': `drift-${i % users}` };
        if (i % 3 === 2) await api.call('DELETE', path, { headers: user });
        else await api.call('PUT', path, { headers: user, body: { type: i % 2 ? 'like' : 'dislike' } });
      });
      await inParallel(users, 50, (u) => api.call('PUT', path, { headers: { 'x-user-id': `drift-${u}` }, body: { type: 'like' } }));
      const { article: after } = await api.call('GET', `/articles/getById/${article.id}`);
      const pass = after.likes === users && after.dislikes === 0;
      return { pass, detail: `likes ${after.likes} (expected ${users}), dislikes ${after.dislikes} (expected 0)` };
    },
  },
  {
    // The recount (core RecountReactions, run inside the service process through the IPC channel
    // of service-with-maintenance.mjs: the embedded store lives only there) compares every
    // article's and comment's stored totals with the reaction records, in every tenant, after
    // all the soak's concurrent user and guest reactions and the churn above.
    name: 'reaction recount finds no drift in any tenant',
    requires: ['PUT /articles/{id}/reaction', 'PUT /articles/comments/{commentId}/reaction'],
    async run(service) {
      const { report } = await service.call({ type: 'recount' });
      const checked = `${report.checked.article} articles and ${report.checked.comment} comments in ${report.tenants} tenants`;
      const drifts = report.drifts.slice(0, 5).map((d) => `${d.tenantId} ${d.targetKind} ${d.targetId} stored ${d.stored.likes}/${d.stored.dislikes} counted ${d.counted.likes}/${d.counted.dislikes}`);
      return { pass: report.drifts.length === 0, detail: `checked ${checked}: ${report.drifts.length} with drift${drifts.length ? ` (${drifts.join('; ')})` : ''}` };
    },
  },
  {
    // Last, so the events of the checks above are delivered too (soak-webhooks.mjs).
    name: 'webhook outbox drained: every confirmed event delivered once to its receiver, none failed, every signature valid',
    requires: WEBHOOK_ROUTES,
    run: (service, context) => checkSoakWebhooks(service, context),
  },
];
