/**
 * In-memory webhook outbox, on the embedded store's seam (stored frozen, handed out shared;
 * decision 0721). Claims read and mark deliveries without awaiting in between, so two
 * dispatchers in one process never claim one delivery within a lease. Its indexes keep every
 * step proportional to what it touches, not to the outbox (a backlog of thousands under load):
 * the unconfirmed deliveries by event (each event-causing write confirms or discards its own),
 * each webhook's deliveries, those of its log (pending and final) in log order, as MongoDB's
 * `tenant_webhook_created` (the log reads its newest page and pruning its `keep` newest, not a
 * backlog of thousands while a receiver is down), and each webhook's pending ones, with the
 * order they fall due in (claims read the due head of each webhook: decision 0825).
 */
import type { ClaimShare } from '../notifications/dispatch-shares.js';
import { newId } from '../shared/ids.js';
import {
  stagedDeliveryState,
  type NewWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOutbox,
  type WebhookDeliveryOutcome,
  type WebhookDeliveryStatus,
} from '../webhooks/webhooks.ports.js';
import { DueQueue, pushDue, type DueVerdict } from './due-queue.js';
import { addTo, removeFrom } from './id-sets.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { SnapshotTable } from './snapshot-table.js';
import { groupInto, isUnclaimed, takeTurns } from './take-turns.js';
import { tenantKey } from './tenant-key.js';
import { newestFirst } from './memory-webhook.repository.js';

export class MemoryWebhookDeliveryOutbox implements WebhookDeliveryOutbox {
  readonly #deliveries = new SnapshotTable<WebhookDelivery>();
  /** Unconfirmed delivery ids by tenant and event; an event leaves it when confirmed or discarded. */
  readonly #unconfirmed = new Map<string, Set<string>>();
  /** Delivery ids by tenant and webhook. */
  readonly #byWebhook = new Map<string, Set<string>>();
  /** Confirmed (pending or final) delivery ids by tenant and webhook, in log order: what the log lists. */
  readonly #logged = new KeysetIndex();
  /** Final (delivered or failed) delivery ids by tenant and webhook: what pruning waits for. */
  readonly #final = new Map<string, Set<string>>();
  /** Pending delivery ids by webhook id (ids are unique across tenants). */
  readonly #pending = new Map<string, Set<string>>();
  /** The same, by webhook, in the order they fall due: what a claim looks at. */
  readonly #dueOrder = new Map<string, DueQueue>();
  /** Deliveries by status, kept as they change: `GET /metrics` asks at every scrape, and needs no key. */
  readonly #counts: Record<WebhookDeliveryStatus, number> = { unconfirmed: 0, pending: 0, delivered: 0, failed: 0 };
  /** The webhook the last claim took a delivery from: the next claim starts after it. */
  #turn: string | null = null;

  async stage(deliveries: readonly NewWebhookDelivery[], now: Date): Promise<void> {
    for (const delivery of deliveries) {
      const id = newId(now);
      this.#counted(this.#deliveries.put(id, { ...delivery, id, ...stagedDeliveryState(now) }), 1);
      addTo(this.#unconfirmed, tenantKey(delivery.tenantId, delivery.eventId), id);
      addTo(this.#byWebhook, tenantKey(delivery.tenantId, delivery.webhookId), id);
    }
  }

  async confirm(tenantId: string, eventId: string, payload: string, now: Date): Promise<void> {
    for (const delivery of this.#takeEvent(tenantId, eventId)) {
      this.#counted(delivery, -1);
      this.#counted(this.#deliveries.update(delivery.id, (current) => ({ ...current, status: 'pending', payload, nextAttemptAt: now, claimedUntil: null, updatedAt: now })), 1);
      this.#logged.add(tenantKey(tenantId, delivery.webhookId), delivery, delivery.id);
      this.#fallsDue(delivery.webhookId, delivery.id, now);
    }
  }

  async discard(tenantId: string, eventId: string): Promise<void> {
    for (const delivery of this.#takeEvent(tenantId, eventId)) this.#remove(delivery);
  }

  async claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<WebhookDelivery[]> {
    const dueByWebhook = new Map<string, WebhookDelivery[]>();
    // A pending delivery is due at `nextAttemptAt` unless a lease holds it; an entry whose delivery
    // has gone final or been given another time since is stale.
    const verdict = (id: string, at: number): DueVerdict => {
      const delivery = this.#deliveries.get(id);
      if (delivery?.status !== 'pending' || delivery.nextAttemptAt.getTime() !== at) return 'stale';
      return isUnclaimed(delivery, now) ? 'take' : 'keep';
    };
    for (const [webhookId, queue] of this.#dueOrder) {
      if (!this.#pending.has(webhookId)) {
        this.#dueOrder.delete(webhookId); // nothing pending: only stale entries left
        continue;
      }
      // No more than the webhook could be given: the batch, and its share's room.
      const room = share ? share.perReceiver - (share.inFlight.get(webhookId) ?? 0) : limit;
      if (room <= 0) continue;
      for (const id of queue.due(now, Math.min(limit, room), verdict)) groupInto(dueByWebhook, webhookId, this.#deliveries.get(id)!);
    }
    const { taken, last } = takeTurns(dueByWebhook, limit, this.#turn, share, (delivery) => delivery.tenantId);
    this.#turn = last;
    return taken.map((delivery) => this.#lease(delivery, now, leaseMs, true));
  }

  async claimUnconfirmed(stagedBefore: Date, now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    const claimed: WebhookDelivery[] = [];
    for (const ids of this.#unconfirmed.values()) {
      for (const delivery of this.#rows(ids)) {
        if (claimed.length >= limit) return claimed;
        if (delivery.status === 'unconfirmed' && delivery.createdAt < stagedBefore && isUnclaimed(delivery, now)) claimed.push(this.#lease(delivery, now, leaseMs, false));
      }
    }
    return claimed;
  }

  async complete(id: string, outcome: WebhookDeliveryOutcome, now: Date): Promise<void> {
    this.#counted(this.#deliveries.get(id), -1);
    const row = this.#deliveries.update(id, (current) => {
      const settled = { ...current, claimedUntil: null, updatedAt: now, lastStatusCode: outcome.statusCode };
      // A final delivery is never sent again: its body (a submission's values, say) goes.
      if (outcome.status === 'delivered') return { ...settled, status: 'delivered', deliveredAt: now, lastError: null, payload: null };
      if (outcome.status === 'failed') {
        const attempts = outcome.withoutRequest ? current.attempts - 1 : current.attempts;
        return { ...settled, status: 'failed', lastError: outcome.error, payload: null, attempts };
      }
      return { ...settled, lastError: outcome.error, nextAttemptAt: outcome.nextAttemptAt };
    });
    this.#counted(row, 1);
    if (row?.status === 'pending') this.#fallsDue(row.webhookId, row.id, row.nextAttemptAt);
    else if (row) {
      removeFrom(this.#pending, row.webhookId, row.id);
      addTo(this.#final, tenantKey(row.tenantId, row.webhookId), row.id);
    }
  }

  async listByWebhook(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const page = { after: null, limit };
    return collectPage(this.#logged.itemsFor(tenantKey(tenantId, webhookId), page), (id) => this.#deliveries.get(id), page);
  }

  async listStagedAfter(tenantId: string, webhookId: string, type: string, after: Date, eventId: string): Promise<WebhookDelivery[]> {
    return this.#ofWebhook(tenantId, webhookId).filter(
      (delivery) => delivery.type === type && delivery.eventId !== eventId && delivery.createdAt.getTime() > after.getTime(),
    );
  }

  async prune(tenantId: string, webhookId: string, keep: number): Promise<void> {
    // Called after every final outcome: with no more than `keep` final deliveries there is nothing
    // a prune could need to take yet. Past it, the final deliveries older than the log's `keep`-th
    // newest go; pending ones stay, and a backlog of them behind the log is not read.
    const key = tenantKey(tenantId, webhookId);
    const finals = this.#final.get(key);
    if (finals === undefined || finals.size <= keep) return;
    const newest = collectPage(this.#logged.newestFirst(key, null), (id) => this.#deliveries.get(id), { after: null, limit: keep });
    const oldestKept = keep > 0 ? newest[keep - 1] : undefined;
    if (keep > 0 && oldestKept === undefined) return;
    for (const delivery of this.#rows([...finals])) if (oldestKept === undefined || newestFirst(delivery, oldestKept) > 0) this.#remove(delivery);
  }

  async removeByWebhook(tenantId: string, webhookId: string): Promise<void> {
    // The log's order goes whole: one delivery at a time, each removal moved the rest of it.
    this.#logged.take(tenantKey(tenantId, webhookId));
    for (const delivery of this.#ofWebhook(tenantId, webhookId)) this.#remove(delivery);
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    return { ...this.#counts };
  }

  /** Claims one delivery until `now + leaseMs`; replacing a row keeps its place in the table, so a caller iterating it is safe. */
  #lease(delivery: WebhookDelivery, now: Date, leaseMs: number, countAttempt: boolean): WebhookDelivery {
    const claimedUntil = new Date(now.getTime() + leaseMs);
    const attempts = countAttempt ? delivery.attempts + 1 : delivery.attempts;
    return this.#deliveries.update(delivery.id, (current) => ({ ...current, claimedUntil, attempts, updatedAt: now }))!;
  }

  /** A pending delivery of `webhookId` falls due at `at`. */
  #fallsDue(webhookId: string, id: string, at: Date): void {
    addTo(this.#pending, webhookId, id);
    pushDue(this.#dueOrder, webhookId, id, at);
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

  /** Counts `delivery`'s status `by` more (a row stored) or less (a row replaced or deleted). */
  #counted(delivery: WebhookDelivery | undefined, by: 1 | -1): void {
    if (delivery) this.#counts[delivery.status] += by;
  }

  #remove(delivery: WebhookDelivery): void {
    this.#counted(this.#deliveries.get(delivery.id), -1);
    this.#deliveries.delete(delivery.id);
    this.#logged.remove(tenantKey(delivery.tenantId, delivery.webhookId), delivery);
    removeFrom(this.#unconfirmed, tenantKey(delivery.tenantId, delivery.eventId), delivery.id);
    removeFrom(this.#byWebhook, tenantKey(delivery.tenantId, delivery.webhookId), delivery.id);
    removeFrom(this.#pending, delivery.webhookId, delivery.id);
    removeFrom(this.#final, tenantKey(delivery.tenantId, delivery.webhookId), delivery.id);
  }
}
