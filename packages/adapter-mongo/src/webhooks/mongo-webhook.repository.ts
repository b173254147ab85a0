/**
 * Webhooks on MongoDB. Reads by `_id` within the tenant; the list pages on (createdAt, _id)
 * descending with a range filter (no skip), served by index `tenant_created`; updates are one
 * `findOneAndUpdate`; `listSubscribed` is served by `tenant_enabled`.
 */
import type { Webhook, WebhookChanges, WebhookPage, WebhookRepository } from '@cms/core';
import { ALL_WEBHOOK_EVENTS } from '@cms/core';
import type { ObjectId } from 'mongodb';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';
import { deleteById } from '../storage/conditional-delete.js';

interface WebhookDocument {
  _id: ObjectId;
  tenantId: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  secret: string;
  createdAt: Date;
  updatedAt: Date;
}

export class MongoWebhookRepository implements WebhookRepository {
  readonly #webhooks: MongoCollection<WebhookDocument>;

  constructor(db: MongoDatabase) {
    this.#webhooks = db.collection<WebhookDocument>(Collections.webhooks);
  }

  async insert(webhook: Webhook): Promise<void> {
    const { id, events, ...rest } = webhook;
    await this.#webhooks.insertOne({ ...rest, _id: toObjectId(id), events: [...events] });
  }

  async findById(tenantId: string, id: string): Promise<Webhook | null> {
    const _id = parseObjectId(id);
    const document = _id && (await this.#webhooks.findOne({ _id, tenantId }));
    return document ? toWebhook(document) : null;
  }

  async list(tenantId: string, page: WebhookPage): Promise<Webhook[]> {
    const after = page.after;
    const filter = after
      ? { tenantId, $or: [{ createdAt: { $lt: after.createdAt } }, { createdAt: after.createdAt, _id: { $lt: toObjectId(after.id) } }] }
      : { tenantId };
    const documents = await this.#webhooks.find(filter).sort({ createdAt: -1, _id: -1 }).limit(page.limit).toArray();
    return documents.map(toWebhook);
  }

  async update(tenantId: string, id: string, changes: WebhookChanges, now: Date, expected?: Date): Promise<Webhook | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const set: Partial<WebhookDocument> = { updatedAt: now };
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.events !== undefined) set.events = [...changes.events];
    if (changes.description !== undefined) set.description = changes.description;
    if (changes.enabled !== undefined) set.enabled = changes.enabled;
    const filter = expected === undefined ? { _id, tenantId } : { _id, tenantId, updatedAt: expected };
    const document = await this.#webhooks.findOneAndUpdate(filter, { $set: set }, { returnDocument: 'after' });
    return document ? toWebhook(document) : null;
  }

  async remove(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    return deleteById(this.#webhooks, tenantId, id, expected);
  }

  async listSubscribed(tenantId: string, type: string): Promise<Webhook[]> {
    const documents = await this.#webhooks.find({ tenantId, enabled: true, events: { $in: [type, ALL_WEBHOOK_EVENTS] } }).toArray();
    return documents.map(toWebhook);
  }
}

function toWebhook(document: WebhookDocument): Webhook {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    url: document.url,
    events: [...document.events],
    description: document.description ?? null,
    enabled: document.enabled,
    secret: document.secret,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
