// The soak's webhook part: during seeding, one tenant in WEBHOOK_SHARE registers a webhook
// (through POST /webhooks/create, as a tenant admin would) pointing at the harness's receiver
// (webhook-receiver.mjs), subscribed to every event type the mix causes (reactions, form and
// submission writes, updates, deletes…; the first such tenant subscribes with "*" instead, so
// both subscription forms are exercised). After the load, the check waits (bounded) for the
// outbox to drain, then compares what the service says it delivered with what the receiver got.
// The settings the service needs: loopback receivers allowed, and retries fast enough to end
// within the wait (the NOTIFY_* defaults back off 30 s and more).
import { WEBHOOK_EVENT_TYPES } from '@cms/core';

export const WEBHOOK_SHARE = 2;
export const DRAIN_SECONDS = 30;
export const SOAK_WEBHOOK_ENV = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', NOTIFY_RETRY_BASE_MS: '200', NOTIFY_RETRY_MAX_MS: '2000', NOTIFY_POLL_MS: '100' };
export const WEBHOOK_ROUTES = ['POST /webhooks/create'];

/** Registers the webhooks (before any other seeding, so no event precedes its receiver's secret); returns one `{ tenantId, webhookId, path }` per registered tenant. */
export async function registerSoakWebhooks(clients, receiver) {
  const chosen = clients.map((api, t) => ({ api, t })).filter(({ t }) => t % WEBHOOK_SHARE === 0);
  return Promise.all(
    chosen.map(async ({ api, t }, i) => {
      const path = `/hooks/tenant-${t}`;
      const url = receiver.url(path);
      const events = i === 0 ? ['*'] : [...WEBHOOK_EVENT_TYPES];
      const { webhook } = await api.call('POST', '/webhooks/create', { headers: api.bearer('admin'), body: { url, events, description: `soak receiver of tenant ${t}` }, expect: [201] });
      receiver.add(path, webhook.secret);
      return { tenantId: api.tenant.tenantId, webhookId: webhook.id, path };
    }),
  );
}

/**
 * The post-soak check: within DRAIN_SECONDS nothing pending or unconfirmed is left; then per
 * webhook, every event the service confirmed was delivered (none failed), the receiver got
 * exactly as many distinct events as the service counted delivered, every signature verified
 * and no request was unexpected. An event answered 2xx twice is reported, not failed: delivery
 * is at least once (docs/decisions/0785-soak-webhook-deliveries.md).
 */
export async function checkSoakWebhooks(service, { receiver, webhooks }) {
  if (!webhooks.length) return { pass: false, detail: 'no webhook was registered' };
  const deadline = Date.now() + DRAIN_SECONDS * 1000;
  let counts = (await service.call({ type: 'webhooks' })).webhooks;
  const open = (c) => c.byStatus.pending + c.byStatus.unconfirmed;
  const backlog = open(counts);
  while (open(counts) > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    counts = (await service.call({ type: 'webhooks' })).webhooks;
  }
  const waited = DRAIN_SECONDS - Math.max(0, (deadline - Date.now()) / 1000);
  const problems = [];
  if (open(counts) > 0) problems.push(`after ${DRAIN_SECONDS} s still ${counts.byStatus.pending} pending and ${counts.byStatus.unconfirmed} unconfirmed`);
  let delivered = 0;
  let duplicates = 0;
  let retried = 0;
  for (const { tenantId, webhookId, path } of webhooks) {
    const sent = { delivered: 0, retried: 0, failed: 0, ...counts.webhooks[webhookId] };
    const events = counts.tenants[tenantId]?.confirmed ?? 0;
    const got = receiver.received(path);
    delivered += got.delivered;
    duplicates += got.duplicates;
    retried += sent.retried;
    if (sent.failed) problems.push(`${tenantId}: ${sent.failed} deliveries failed`);
    if (events !== sent.delivered + sent.failed) problems.push(`${tenantId}: ${events} events confirmed but ${sent.delivered + sent.failed} deliveries settled (lost in the outbox)`);
    if (got.delivered !== sent.delivered) problems.push(`${tenantId}: the service delivered ${sent.delivered}, the receiver got ${got.delivered} distinct events`);
  }
  const { tally } = receiver;
  if (tally.badSignatures) problems.push(`${tally.badSignatures} bad signatures`);
  if (tally.unexpected) problems.push(`${tally.unexpected} unexpected requests`);
  if (delivered === 0) problems.push('no delivery at all: the mix caused no event');
  if (tally.injected500 && !retried) problems.push(`${tally.injected500} answers were 500 but the service retried none`);
  const types = {};
  for (const { path } of webhooks) for (const [type, n] of Object.entries(receiver.received(path).byType)) types[type] = (types[type] ?? 0) + n;
  const detail = [
    `${delivered} events delivered to ${webhooks.length} webhooks (${tally.requests} requests, ${tally.injected500} first attempts answered 500 and retried ${retried} times), ${backlog} still to send after the load, drained in ${waited.toFixed(1)} s`,
    `${duplicates} delivered twice (at least once: reported, not failed)`,
    `by type: ${Object.entries(types).sort().map(([type, n]) => `${type} ${n}`).join(', ')}`,
    ...problems,
    ...tally.samples,
  ].join('; ');
  return { pass: problems.length === 0, detail, deliveries: delivered };
}
