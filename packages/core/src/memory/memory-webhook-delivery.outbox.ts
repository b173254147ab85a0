/**
 * In-memory webhook outbox, on the embedded store's seam (stored frozen, handed out shared;
 * decision 0721). Claims read and mark deliveries without awaiting in between, so two
 * dispatchers in one process never claim one delivery within a lease. Two indexes keep every
 * step proportional to what it touches, not to the outbox (a backlog of thousands under load):
 * the unconfirmed deliveries by event (each event-causing write confirms or discards its own), and
 * each webhook's deliveries (its log and pruning).
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
import { tenantKey } from './tenant-key.js';
import { newestFirst } from './memory-webhook.repository.js';

export class MemoryWebhookDeliveryOutbox implements WebhookDeliveryOutbox {
  readonly #deliveries = new SnapshotTable<WebhookDelivery>();
  /** Unconfirmed delivery ids by tenant and event; an event leaves it when confirmed or discarded. */
  readonly #unconfirmed = new Map<string, Set<string>>();
  /** Delivery ids by tenant and webhook. */
  readonly #byWebhook = new Map<string, Set<string>>();

  async stage(deliveries: readonly NewWebhookDelivery[], now: Date): Promise<void> {
    for (const delivery of deliveries) {
      const id = newId(now);
      this.#deliveries.put(id, { ...delivery, id, ...stagedDeliveryState(now) });
      addTo(this.#unconfirmed, tenantKey(delivery.tenantId, delivery.eventId), id);
      addTo(this.#byWebhook, tenantKey(delivery.tenantId, delivery.webhookId), id);
    }
  }

  async confirm(tenantId: string, eventId: string, payload: string, now: Date): Promise<void> {
    for (const delivery of this.#takeEvent(tenantId, eventId)) {
      this.#deliveries.update(delivery.id, (current) => ({ ...current, status: 'pending', payload, nextAttemptAt: now, claimedUntil: null, updatedAt: now }));
    }
  }

  async discard(tenantId: string, eventId: string): Promise<void> {
    for (const delivery of this.#takeEvent(tenantId, eventId)) this.#remove(delivery);
  }

  async claimDue(now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    return this.#claim(this.#deliveries.values(), limit, now, leaseMs, (delivery) => delivery.status === 'pending' && delivery.nextAttemptAt <= now, true);
  }

  async claimUnconfirmed(stagedBefore: Date, now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    const unconfirmed = [...this.#unconfirmed.values()].flatMap((ids) => this.#rows(ids));
    return this.#claim(unconfirmed, limit, now, leaseMs, (delivery) => delivery.status === 'unconfirmed' && delivery.createdAt < stagedBefore, false);
  }

  async complete(id: string, outcome: WebhookDeliveryOutcome, now: Date): Promise<void> {
    this.#deliveries.update(id, (current) => {
      const settled = { ...current, claimedUntil: null, updatedAt: now, lastStatusCode: outcome.statusCode };
      // A final delivery is never sent again: its body (a submission's values, say) goes.
      if (outcome.status === 'delivered') return { ...settled, status: 'delivered', deliveredAt: now, lastError: null, payload: null };
      if (outcome.status === 'failed') {
        const attempts = outcome.withoutRequest ? current.attempts - 1 : current.attempts;
        return { ...settled, status: 'failed', lastError: outcome.error, payload: null, attempts };
      }
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
    const listed = this.#ofWebhook(tenantId, webhookId).filter((delivery) => delivery.status !== 'unconfirmed');
    if (listed.length <= keep) return;
    for (const delivery of listed.sort(newestFirst).slice(keep)) {
      if (delivery.status === 'delivered' || delivery.status === 'failed') this.#remove(delivery);
    }
  }

  async removeByWebhook(tenantId: string, webhookId: string): Promise<void> {
    for (const delivery of this.#ofWebhook(tenantId, webhookId)) this.#remove(delivery);
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    const counts: Record<WebhookDeliveryStatus, number> = { unconfirmed: 0, pending: 0, delivered: 0, failed: 0 };
    for (const delivery of this.#deliveries.values()) counts[delivery.status] += 1;
    return counts;
  }

  /** Claims from `candidates` in order; replacing a row keeps its place in the table, so iterating the table itself is safe. */
  #claim(candidates: Iterable<WebhookDelivery>, limit: number, now: Date, leaseMs: number, due: (delivery: WebhookDelivery) => boolean, countAttempt: boolean): WebhookDelivery[] {
    const claimed: WebhookDelivery[] = [];
    for (const delivery of candidates) {
      if (claimed.length >= limit) break;
      const free = delivery.claimedUntil === null || delivery.claimedUntil <= now;
      if (!free || !due(delivery)) continue;
      const claimedUntil = new Date(now.getTime() + leaseMs);
      const attempts = countAttempt ? delivery.attempts + 1 : delivery.attempts;
      claimed.push(this.#deliveries.update(delivery.id, (current) => ({ ...current, claimedUntil, attempts, updatedAt: now }))!);
    }
    return claimed;
  }

  /** The event's unconfirmed deliveries, taken out of the index (they are confirmed or discarded next). */
  #takeEvent(tenantId: string, eventId: string): WebhookDelivery[] {
    const key = tenantKey(tenantId, eventId);
    const ids = this.#unconfirmed.get(key);
    this.#unconfirmed.delete(key);
    return ids ? this.#rows(ids).filter((d) => d.status === 'unconfirmed') : [];
  }

  #ofWebhook(tenantId: string, webhookId: string): WebhookDelivery[] {
    return this.#rows(this.#byWebhook.get(tenantKey(tenantId, webhookId)) ?? []);
  }

  #rows(ids: Iterable<string>): WebhookDelivery[] {
    const rows: WebhookDelivery[] = [];
    for (const id of ids) {
      const row = this.#deliveries.get(id);
      if (row) rows.push(row);
    }
    return rows;
  }

  #remove(delivery: WebhookDelivery): void {
    this.#deliveries.delete(delivery.id);
    removeFrom(this.#unconfirmed, tenantKey(delivery.tenantId, delivery.eventId), delivery.id);
    removeFrom(this.#byWebhook, tenantKey(delivery.tenantId, delivery.webhookId), delivery.id);
  }
}


function addTo(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}

function removeFrom(index: Map<string, Set<string>>, key: string, id: string): void {
  const ids = index.get(key);
  if (ids?.delete(id) && ids.size === 0) index.delete(key);
}
