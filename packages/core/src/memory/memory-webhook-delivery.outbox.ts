/**
 * In-memory webhook outbox, on the embedded store's seam (stored frozen, handed out shared;
 * decision 0721). Claims read and mark deliveries without awaiting in between, so two
 * dispatchers in one process never claim one delivery within a lease.
 */
import { newId } from '../shared/ids.js';
import {
  stagedDeliveryState,
  type NewWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOutbox,
  type WebhookDeliveryOutcome,
  type WebhookDeliveryStatus,
} from '../webhooks/webhooks.ports.js';
import { SnapshotTable } from './snapshot-table.js';
import { newestFirst } from './memory-webhook.repository.js';

export class MemoryWebhookDeliveryOutbox implements WebhookDeliveryOutbox {
  readonly #deliveries = new SnapshotTable<WebhookDelivery>();

  async stage(deliveries: readonly NewWebhookDelivery[], now: Date): Promise<void> {
    for (const delivery of deliveries) {
      const id = newId(now);
      this.#deliveries.put(id, { ...delivery, id, ...stagedDeliveryState(now) });
    }
  }

  async confirm(tenantId: string, eventId: string, payload: string, now: Date): Promise<void> {
    for (const delivery of this.#ofEvent(tenantId, eventId)) {
      this.#deliveries.update(delivery.id, (current) => ({ ...current, status: 'pending', payload, nextAttemptAt: now, claimedUntil: null, updatedAt: now }));
    }
  }

  async discard(tenantId: string, eventId: string): Promise<void> {
    for (const delivery of this.#ofEvent(tenantId, eventId)) this.#deliveries.delete(delivery.id);
  }

  async claimDue(now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#claim(limit, now, leaseMs, (delivery) => delivery.status === 'pending' && delivery.nextAttemptAt <= now, true);
  }

  async claimUnconfirmed(stagedBefore: Date, now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#claim(limit, now, leaseMs, (delivery) => delivery.status === 'unconfirmed' && delivery.createdAt < stagedBefore, false);
  }

  async complete(id: string, outcome: WebhookDeliveryOutcome, now: Date): Promise<void> {
    this.#deliveries.update(id, (current) => {
      const settled = { ...current, claimedUntil: null, updatedAt: now, lastStatusCode: outcome.statusCode };
      if (outcome.status === 'delivered') return { ...settled, status: 'delivered', deliveredAt: now, lastError: null };
      if (outcome.status === 'failed') return { ...settled, status: 'failed', lastError: outcome.error };
      return { ...settled, lastError: outcome.error, nextAttemptAt: outcome.nextAttemptAt };
    });
  }

  async listByWebhook(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    return this.#ofWebhook(tenantId, webhookId)
      .filter((delivery) => delivery.status !== 'unconfirmed')
      .sort(newestFirst)
      .slice(0, limit);
  }

  async prune(tenantId: string, webhookId: string, keep: number): Promise<void> {
    const newest = this.#ofWebhook(tenantId, webhookId).filter((delivery) => delivery.status !== 'unconfirmed').sort(newestFirst);
    for (const delivery of newest.slice(keep)) {
      if (delivery.status === 'delivered' || delivery.status === 'failed') this.#deliveries.delete(delivery.id);
    }
  }

  async removeByWebhook(tenantId: string, webhookId: string): Promise<void> {
    for (const delivery of this.#ofWebhook(tenantId, webhookId)) this.#deliveries.delete(delivery.id);
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    const counts: Record<WebhookDeliveryStatus, number> = { unconfirmed: 0, pending: 0, delivered: 0, failed: 0 };
    for (const delivery of this.#deliveries.values()) counts[delivery.status] += 1;
    return counts;
  }

  #claim(limit: number, now: Date, leaseMs: number, due: (delivery: WebhookDelivery) => boolean, countAttempt: boolean): WebhookDelivery[] {
    const claimed: WebhookDelivery[] = [];
    for (const delivery of [...this.#deliveries.values()]) {
      if (claimed.length >= limit) break;
      const free = delivery.claimedUntil === null || delivery.claimedUntil <= now;
      if (!free || !due(delivery)) continue;
      const claimedUntil = new Date(now.getTime() + leaseMs);
      const attempts = countAttempt ? delivery.attempts + 1 : delivery.attempts;
      claimed.push(this.#deliveries.update(delivery.id, (current) => ({ ...current, claimedUntil, attempts, updatedAt: now }))!);
    }
    return claimed;
  }

  #ofEvent(tenantId: string, eventId: string): WebhookDelivery[] {
    return [...this.#deliveries.values()].filter((d) => d.tenantId === tenantId && d.eventId === eventId && d.status === 'unconfirmed');
  }

  #ofWebhook(tenantId: string, webhookId: string): WebhookDelivery[] {
    return [...this.#deliveries.values()].filter((d) => d.tenantId === tenantId && d.webhookId === webhookId);
  }
}
