/**
 * The frame of the §7 delivery specs: one service per storage with fast webhook settings, a fresh
 * loopback receiver per test, and every webhook deleted after each test so none hears another
 * test's events. Call inside a `describe`.
 */
import { engagementClient, type Headers } from '../testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver, type ReceivedWebhook } from '../testing/standard-webhook.receiver.js';
import { startTestService, type TestService, type TestStorage } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

export interface WebhookSuite {
  readonly api: TestService;
  readonly admin: Headers;
  readonly receiver: StandardWebhookReceiver;
  /** Creates a webhook (to the receiver unless `url` is given), hands its secret to the receiver, returns its id. */
  subscribe(events: string[], url?: string): Promise<string>;
}

/** `env` adds to (or overrides) the fast webhook settings of the suite's service. */
export function webhookSuite(storage: TestStorage, env: Record<string, string> = {}): WebhookSuite {
  let api: TestService;
  let admin: Headers;
  let receiver: StandardWebhookReceiver;
  before(async () => {
    api = await startTestService({ ...FAST_WEBHOOKS, ...env }, { storage });
    admin = await engagementClient(api).bearer('admin');
  });
  after(() => api.stop());
  beforeEach(async () => (receiver = await StandardWebhookReceiver.start()));
  afterEach(async () => {
    const list = await api.call('GET', '/webhooks/list?limit=100', { headers: admin });
    for (const webhook of list.body.data.webhooks) await api.call('DELETE', `/webhooks/delete/${webhook.id}`, { headers: admin });
    await receiver.stop();
  });
  return {
    get api() {
      return api;
    },
    get admin() {
      return admin;
    },
    get receiver() {
      return receiver;
    },
    async subscribe(events, url = receiver.url()) {
      const res = await api.call('POST', '/webhooks/create', { headers: admin, body: { url, events } });
      if (res.status !== 201) throw new Error(`webhook create answered ${res.status}: ${JSON.stringify(res.body)}`);
      receiver.secret = res.body.data.webhook.secret;
      return res.body.data.webhook.id;
    },
  };
}

/**
 * The first request of each webhook-id. Delivery is at least once: a retry after a timeout on a
 * loaded machine repeats an event with its webhook-id and the same bytes (checked here), and a
 * receiver keeps the first (Standard Webhooks).
 */
export function firstOfEach(received: readonly ReceivedWebhook[]): ReceivedWebhook[] {
  const firstById = new Map<string, ReceivedWebhook>();
  for (const request of received) {
    const earlier = firstById.get(request.id);
    if (!earlier) firstById.set(request.id, request);
    else if (request.rawBody !== earlier.rawBody) throw new Error(`a repeat of ${request.id} carries other bytes: ${request.rawBody}`);
  }
  return [...firstById.values()];
}

/**
 * Records every event type touches: forms `<prefix>-company` and `<prefix>-person` (a
 * single-value relation `employer` to company), submissions Acme and Ada with Ada's employer
 * connected to Acme, and an article with an approved comment.
 */
export async function relatedRecords(api: TestService, prefix: string) {
  const engagement = engagementClient(api);
  const company = await createForm(api, `${prefix}-company`);
  const person = await createForm(api, `${prefix}-person`, {
    sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }, { name: 'employer', type: 'relation', label: { en: 'Employer' }, relation: { formId: company.id } }] }],
  });
  const acme = await submitForm(api, company.id, { name: 'Acme' });
  const ada = await submitForm(api, person.id, { name: 'Ada' });
  const connected = await api.call('POST', `/forms/submission/${ada.id}/relations/employer/connect`, { body: { relatedSubmissionId: acme.id } });
  if (connected.status !== 200) throw new Error(`connect answered ${connected.status}: ${JSON.stringify(connected.body)}`);
  const article = await engagement.article({ title: 'Hooked' });
  const comment = await engagement.comment(article.id); // created, then approved
  return { company, person, acme, ada, article, comment };
}
