/**
 * The §6 routes that send a §7 webhook event (decision 0783), pinned beside the §2 operations of
 * command-counts.scenarios.ts: each sends `find webhooks` before its change, like the creates; a
 * refusal before the change sends none. Each deletes or changes records it prepares itself, so the
 * fixtures stay as the §2 scenarios expect them.
 */
import { engagementClient } from '../testing/engagement-client.js';
import { createForm, submitForm } from './form-requests.js';
import { UNKNOWN_ID, type Scenario } from './command-counts.scenarios.js';

const KEY = 'find api_keys';

export const CONTENT_EVENT_SCENARIOS: readonly Scenario[] = [
  {
    route: 'PATCH /forms/update/{id}',
    outcome: 'updated (no references)',
    status: 200,
    prepare: async (f) => ({ id: (await createForm(f.api, 'counted-patched')).id }),
    send: (f, p) => f.api.call('PATCH', `/forms/update/${p.id}`, { body: { title: { en: 'Patched' } } }),
    commands: [KEY, 'find forms', 'find webhooks', 'findAndModify forms'],
  },
  { route: 'PATCH /forms/update/{id}', outcome: 'empty body (no-op)', status: 200, send: (f) => f.api.call('PATCH', `/forms/update/${f.company.id}`, { body: {} }), commands: [KEY, 'find forms'] },
  {
    route: 'PATCH /articles/update/{id}',
    outcome: 'updated',
    status: 200,
    prepare: async (f) => ({ id: (await engagementClient(f.api).article()).id }),
    send: (f, p) => f.api.call('PATCH', `/articles/update/${p.id}`, { headers: f.editor, body: { title: 'Patched' } }),
    commands: [KEY, 'find articles', 'find webhooks', 'findAndModify articles', 'find articles'],
  },
  {
    route: 'POST /forms/submission/{id}/relations/{field}/disconnect',
    outcome: 'disconnected',
    status: 200,
    prepare: async (f) => {
      const ada = await submitForm(f.api, f.person.id, { name: 'Ada' });
      await f.api.call('POST', `/forms/submission/${ada.id}/relations/clients/connect`, { body: { relatedSubmissionId: f.acme.id } });
      return { id: ada.id };
    },
    send: (f, p) => f.api.call('POST', `/forms/submission/${p.id}/relations/clients/disconnect`, { body: { relatedSubmissionId: f.acme.id } }),
    commands: [KEY, 'find form_submissions', 'find forms', 'find webhooks', 'findAndModify form_submissions'],
  },
  {
    route: 'DELETE /articles/comments/{id}',
    outcome: 'deleted',
    status: 200,
    prepare: async (f) => ({ id: (await engagementClient(f.api).comment(f.article.id)).id }),
    send: (f, p) => f.api.call('DELETE', `/articles/comments/${p.id}`, { headers: f.editor }),
    commands: [KEY, 'find comments', 'find webhooks', 'delete reactions', 'findAndModify comments'],
  },
  { route: 'DELETE /articles/comments/{id}', outcome: 'Comment not found', status: 404, send: (f) => f.api.call('DELETE', `/articles/comments/${UNKNOWN_ID}`, { headers: f.editor }), commands: [KEY, 'find comments'] },
  {
    route: 'DELETE /forms/submission/{id}',
    outcome: 'deleted',
    status: 200,
    prepare: async (f) => ({ id: (await submitForm(f.api, f.company.id, { name: 'Gone' })).id }),
    send: (f, p) => f.api.call('DELETE', `/forms/submission/${p.id}`, { headers: f.editor }),
    commands: [KEY, 'find form_submissions', 'find webhooks', 'find forms', ...Array(4).fill('update form_submissions'), 'delete notification_outbox', 'findAndModify form_submissions'],
  },
  {
    route: 'DELETE /articles/delete/{id}',
    outcome: 'deleted (no comments)',
    status: 200,
    prepare: async (f) => ({ id: (await engagementClient(f.api).article()).id }),
    send: (f, p) => f.api.call('DELETE', `/articles/delete/${p.id}`, { headers: f.editor }),
    commands: [KEY, 'find articles', 'find webhooks', 'find comments', 'find comments', 'delete comments', 'delete comments', 'delete reactions', 'findAndModify articles'],
  },
  {
    route: 'DELETE /forms/delete/{id}',
    outcome: 'deleted (no submissions)',
    status: 200,
    prepare: async (f) => ({ id: (await createForm(f.api, 'counted-gone')).id }),
    send: (f, p) => f.api.call('DELETE', `/forms/delete/${p.id}`, { headers: f.editor }),
    commands: [KEY, 'find forms', 'find webhooks', 'findAndModify forms', 'findAndModify forms', 'delete notification_outbox', 'find forms', 'find form_submissions', 'delete form_submissions', 'delete form_submissions'],
  },
];
