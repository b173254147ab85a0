// Test-only: wraps the service's webhook outbox (service-with-maintenance.mjs rebinds it) and
// counts, per tenant and per webhook, what the service did with events: confirmed (the event
// exists and must reach every subscribed webhook), discarded, and each delivery's final outcome.
// Plain counters only, so the soak's RSS reading is not skewed by the bookkeeping; the delivery
// log itself keeps only the latest 100 per webhook (CONTRACT §7), so it cannot give totals.
export function countingWebhookOutbox(outbox) {
  const tenants = {};
  const webhooks = {};
  /** Deliveries claimed and not yet completed: id → webhook (bounded by the batches in flight). */
  const claimed = new Map();
  const bump = (table, key, field) => {
    const row = (table[key] ??= { confirmed: 0, discarded: 0, delivered: 0, retried: 0, failed: 0 });
    row[field] += 1;
  };
  const remember = (deliveries) => {
    for (const d of deliveries) claimed.set(d.id, d.webhookId);
    return deliveries;
  };
  const wrapped = {
    async confirm(tenantId, eventId, payload, now) {
      await outbox.confirm(tenantId, eventId, payload, now);
      bump(tenants, tenantId, 'confirmed');
    },
    async discard(tenantId, eventId) {
      await outbox.discard(tenantId, eventId);
      bump(tenants, tenantId, 'discarded');
    },
    claimDue: async (...args) => remember(await outbox.claimDue(...args)),
    claimUnconfirmed: async (...args) => remember(await outbox.claimUnconfirmed(...args)),
    async complete(id, outcome, now) {
      await outbox.complete(id, outcome, now);
      const webhookId = claimed.get(id);
      claimed.delete(id);
      if (webhookId) bump(webhooks, webhookId, outcome.status === 'retry' ? 'retried' : outcome.status);
    },
  };
  return {
    outbox: new Proxy(outbox, { get: (target, name) => wrapped[name] ?? (typeof target[name] === 'function' ? target[name].bind(target) : target[name]) }),
    /** The counters, and the outbox's own count of deliveries by status (`pending` and `unconfirmed` must reach 0). */
    report: async () => ({ byStatus: await outbox.countByStatus(), tenants, webhooks }),
  };
}
