/**
 * The webhook outbox on MongoDB: one document per (event, webhook). Staging is one `insertMany`,
 * confirming and discarding one `updateMany` / `deleteMany` by (tenant, event, unconfirmed); a
 * claim is one `findOneAndUpdate` per delivery (pending, due, no live lease → lease, attempt+1),
 * so dispatchers on several instances never claim one delivery within a lease. Indexes:
 * `status_webhook_due` (due claims, taking turns between webhooks), `status_due` (settling
 * unconfirmed events, the counts by status), `tenant_event` (confirm, discard),
 * `tenant_webhook_created` (log; the prune's newest kept), `tenant_webhook_status_created` (the
 * prune's delete).
 */
import {
  type ClaimShare,
  type EventWitness,
  type NewWebhookDelivery,
  type TraceContext,
  type WebhookDelivery,
  type WebhookDeliveryOutbox,
  type WebhookDeliveryOutcome,
  type WebhookDeliveryStatus,
} from '@cms/core';
import { stagedDeliveryState } from '@cms/core/internal';
import { ObjectId } from 'mongodb';
import { TurnClaims } from '../storage/turn-claims.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

interface DeliveryDocument {
  _id: ObjectId;
  tenantId: string;
  webhookId: ObjectId;
  eventId: ObjectId;
  type: string;
  witness: EventWitness;
  trace: TraceContext | null;
  status: WebhookDeliveryStatus;
  payload: string | null;
  attempts: number;
  nextAttemptAt: Date;
  claimedUntil: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  updatedAt: Date;
}

const FINAL: WebhookDeliveryStatus[] = ['delivered', 'failed'];

/** The index the prune's delete scans (mongo-collections.ts). */
const PRUNE_INDEX = 'tenant_webhook_status_created';

export class MongoWebhookDeliveryOutbox implements WebhookDeliveryOutbox {
  readonly #deliveries: MongoCollection<DeliveryDocument>;
  readonly #turns: TurnClaims<DeliveryDocument, ObjectId>;

  constructor(db: MongoDatabase) {
    this.#deliveries = db.collection<DeliveryDocument>(Collections.webhookDeliveries);
    const webhooks = db.collection<{ _id: ObjectId; tenantId: string }>(Collections.webhooks);
    // A tenant's webhooks, by `tenant_enabled`'s `{tenantId}` prefix: read only while the tenant holds its share.
    const webhooksOf = async (tenantIds: readonly string[]): Promise<ObjectId[]> =>
      (await webhooks.find({ tenantId: { $in: [...tenantIds] } }, { projection: { _id: 1 } }).toArray()).map((webhook) => webhook._id);
    this.#turns = new TurnClaims(this.#deliveries, 'webhookId', fromObjectId, toObjectId, webhooksOf);
  }

  async stage(deliveries: readonly NewWebhookDelivery[], now: Date): Promise<void> {
    if (deliveries.length === 0) return;
    await this.#deliveries.insertMany(
      deliveries.map((delivery) => ({
        _id: new ObjectId(),
        tenantId: delivery.tenantId,
        webhookId: toObjectId(delivery.webhookId),
        eventId: toObjectId(delivery.eventId),
        type: delivery.type,
        witness: { ...delivery.witness },
        trace: delivery.trace ? { ...delivery.trace } : null,
        ...stagedDeliveryState(now),
      })),
    );
  }

  async confirm(tenantId: string, eventId: string, payload: string, now: Date): Promise<void> {
    await this.#deliveries.updateMany(
      { tenantId, eventId: toObjectId(eventId), status: 'unconfirmed' },
      { $set: { status: 'pending', payload, nextAttemptAt: now, claimedUntil: null, updatedAt: now } },
    );
  }

  async discard(tenantId: string, eventId: string): Promise<void> {
    await this.#deliveries.deleteMany({ tenantId, eventId: toObjectId(eventId), status: 'unconfirmed' });
  }

  /** Served by `status_webhook_due`, taking turns between webhooks (decision 0817). */
  async claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<WebhookDelivery[]> {
    return (await this.#turns.claim(now, leaseMs, limit, share)).map(toDelivery);
  }

  async claimUnconfirmed(stagedBefore: Date, now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]> {
    const claimedUntil = new Date(now.getTime() + leaseMs);
    const claimed: WebhookDelivery[] = [];
    while (claimed.length < limit) {
      // Served by `status_due`; settling counts no attempt (no request is sent).
      const document = await this.#deliveries.findOneAndUpdate(
        { status: 'unconfirmed', nextAttemptAt: { $lt: stagedBefore }, $or: [{ claimedUntil: null }, { claimedUntil: { $lte: now } }] },
        { $set: { claimedUntil, updatedAt: now } },
        { sort: { nextAttemptAt: 1 }, returnDocument: 'after' },
      );
      if (!document) break;
      claimed.push(toDelivery(document));
    }
    return claimed;
  }

  async complete(id: string, outcome: WebhookDeliveryOutcome, now: Date): Promise<void> {
    const _id = parseObjectId(id);
    if (!_id) return;
    const common = { claimedUntil: null, updatedAt: now, lastStatusCode: outcome.statusCode };
    // A final delivery is never sent again: its body (a submission's values, say) goes.
    const fields =
      outcome.status === 'delivered'
        ? { status: 'delivered' as const, deliveredAt: now, lastError: null, payload: null }
        : outcome.status === 'failed'
          ? { status: 'failed' as const, lastError: outcome.error, payload: null }
          : { lastError: outcome.error, nextAttemptAt: outcome.nextAttemptAt };
    const takeBack = outcome.status === 'failed' && outcome.withoutRequest === true;
    await this.#deliveries.updateOne({ _id }, { $set: { ...common, ...fields }, ...(takeBack ? { $inc: { attempts: -1 } } : {}) });
  }

  async listByWebhook(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]> {
    const filter = { tenantId, webhookId: toObjectId(webhookId), status: { $ne: 'unconfirmed' as const } };
    const documents = await this.#deliveries.find(filter).sort({ createdAt: -1, _id: -1 }).limit(limit).toArray();
    return documents.map(toDelivery);
  }

  /** Served by `tenant_webhook_created`'s `{tenantId, webhookId, createdAt}`: a webhook's log (~100) and what it has to send. */
  async listStagedAfter(tenantId: string, webhookId: string, type: string, after: Date, eventId: string): Promise<WebhookDelivery[]> {
    const documents = await this.#deliveries
      .find({ tenantId, webhookId: toObjectId(webhookId), createdAt: { $gt: after }, type, eventId: { $ne: toObjectId(eventId) } })
      .toArray();
    return documents.map(toDelivery);
  }

  /**
   * The newest `keep` through `tenant_webhook_created`; the delete through
   * `tenant_webhook_status_created`, which holds the status, so it reads the final deliveries
   * behind the log and none of the pending ones. Through the other index it read every pending
   * delivery staged before the log's oldest, and a receiver's backlog made each final outcome
   * read it again (decision 0841).
   */
  async prune(tenantId: string, webhookId: string, keep: number): Promise<void> {
    const filter = { tenantId, webhookId: toObjectId(webhookId), status: { $ne: 'unconfirmed' as const } };
    const newest = await this.#deliveries.find(filter, { projection: { _id: 1, createdAt: 1 } }).sort({ createdAt: -1, _id: -1 }).limit(keep).toArray();
    if (newest.length < keep) return;
    const oldestKept = newest[newest.length - 1]!;
    await this.#deliveries.deleteMany(
      {
        ...filter,
        status: { $in: FINAL },
        $or: [{ createdAt: { $lt: oldestKept.createdAt } }, { createdAt: oldestKept.createdAt, _id: { $lt: oldestKept._id } }],
      },
      // Named rather than left to the planner's trial, so the plan does not depend on what the
      // trial happened to see, and the collection double checks this one index.
      { hint: PRUNE_INDEX },
    );
  }

  async removeByWebhook(tenantId: string, webhookId: string): Promise<void> {
    await this.#deliveries.deleteMany({ tenantId, webhookId: toObjectId(webhookId) });
  }

  async countByStatus(): Promise<Record<WebhookDeliveryStatus, number>> {
    const counts: Record<WebhookDeliveryStatus, number> = { unconfirmed: 0, pending: 0, delivered: 0, failed: 0 };
    // The $match on status lets the status_due index serve the count (decision 0751).
    const groups = await this.#deliveries
      .aggregate<{ _id: WebhookDeliveryStatus; count: number }>([{ $match: { status: { $in: Object.keys(counts) } } }, { $group: { _id: '$status', count: { $sum: 1 } } }])
      .toArray();
    for (const group of groups) if (Object.hasOwn(counts, group._id)) counts[group._id] = group.count;
    return counts;
  }
}

function toDelivery(document: DeliveryDocument): WebhookDelivery {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    webhookId: fromObjectId(document.webhookId),
    eventId: fromObjectId(document.eventId),
    type: document.type,
    witness: document.witness,
    trace: document.trace ?? null,
    status: document.status,
    payload: document.payload ?? null,
    attempts: document.attempts,
    nextAttemptAt: document.nextAttemptAt,
    claimedUntil: document.claimedUntil ?? null,
    lastStatusCode: document.lastStatusCode ?? null,
    lastError: document.lastError ?? null,
    createdAt: document.createdAt,
    deliveredAt: document.deliveredAt ?? null,
    updatedAt: document.updatedAt,
  };
}
