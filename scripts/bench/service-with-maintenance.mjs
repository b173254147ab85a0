// Test-only tooling: the service as main.js starts it (same configuration from the environment,
// same start-up line), plus an IPC channel through which the harness reaches the embedded
// store that lives only in this process. The soak asks it for the reaction recount after the
// load, and for what became of webhook events: the webhook outbox is wrapped in counters (the
// only change to the service's bindings). There is no HTTP route for any of this, and nothing
// here ships with the service.
//   { id, type: 'recount', tenantId? }  → { id, report }  (RecountReactions from the container, report only)
//   { id, type: 'memory' }              → { id, memory }  (process.memoryUsage() after a full GC when exposed)
//   { id, type: 'webhooks' }            → { id, webhooks } (counting-webhook-outbox.mjs: events confirmed, deliveries' outcomes, outbox by status)
// Errors answer { id, error }. Started by processes.mjs (startService with `maintenance: true`).
import 'reflect-metadata';
import { RecountReactions, WebhookDeliveryOutboxToken } from '@cms/core';
import { loadConfig, startService } from '@cms/server';
import { countingWebhookOutbox } from './counting-webhook-outbox.mjs';

if (!process.send) {
  process.stderr.write('service-with-maintenance.mjs must be started with an IPC channel (by the bench harness)\n');
  process.exit(2);
}

const config = loadConfig(process.env);
let webhookCounts;
const service = await startService(config, {
  configure(container) {
    webhookCounts = countingWebhookOutbox(container.get(WebhookDeliveryOutboxToken));
    container.rebind(WebhookDeliveryOutboxToken).toConstantValue(webhookCounts.outbox);
  },
});
process.stderr.write(`CMS service listening on ${service.url}${config.http.basePath} (storage: ${config.storage.kind}; maintenance over IPC)\n`);

const handlers = {
  async recount({ tenantId }) {
    const report = await service.container.get(RecountReactions).execute(tenantId ? { tenantId } : {});
    return { report };
  },
  async webhooks() {
    return { webhooks: await webhookCounts.report() };
  },
  async memory() {
    globalThis.gc?.();
    return { memory: process.memoryUsage() };
  },
};

process.on('message', async (message) => {
  const handler = handlers[message?.type];
  try {
    if (!handler) throw new Error(`unknown maintenance message ${JSON.stringify(message?.type)}`);
    process.send({ id: message.id, ...(await handler(message)) });
  } catch (error) {
    process.send({ id: message?.id, error: String(error?.stack ?? error) });
  }
});

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  process.disconnect?.();
  service.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
