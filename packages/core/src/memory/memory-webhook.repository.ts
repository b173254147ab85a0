/** In-memory webhooks, keyed by (tenant, id); records are stored and handed out as copies. */
import type { WebhookChanges, WebhookPage, WebhookRepository } from '../webhooks/webhooks.ports.js';
import { subscribesTo, type Webhook } from '../webhooks/webhook.js';
import { copyRecord } from './copy-record.js';
import { tenantKey } from './tenant-key.js';

/** Newest first: createdAt descending, then id descending. */
export function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export class MemoryWebhookRepository implements WebhookRepository {
  readonly #webhooks = new Map<string, Webhook>();

  async insert(webhook: Webhook): Promise<void> {
    const key = tenantKey(webhook.tenantId, webhook.id);
    if (this.#webhooks.has(key)) throw new Error(`duplicate webhook id ${webhook.id}`);
    this.#webhooks.set(key, copyRecord(webhook));
  }

  async findById(tenantId: string, id: string): Promise<Webhook | null> {
    const webhook = this.#webhooks.get(tenantKey(tenantId, id));
    return webhook ? copyRecord(webhook) : null;
  }

  async list(tenantId: string, page: WebhookPage): Promise<Webhook[]> {
    const after = page.after;
    return this.#ofTenant(tenantId)
      .filter((webhook) => !after || newestFirst(after, webhook) < 0)
      .sort(newestFirst)
      .slice(0, page.limit)
      .map(copyRecord);
  }

  async update(tenantId: string, id: string, changes: WebhookChanges, now: Date): Promise<Webhook | null> {
    const key = tenantKey(tenantId, id);
    const current = this.#webhooks.get(key);
    if (!current) return null;
    const updated: Webhook = { ...current, ...copyRecord(changes), updatedAt: now };
    this.#webhooks.set(key, updated);
    return copyRecord(updated);
  }

  async remove(tenantId: string, id: string): Promise<boolean> {
    return this.#webhooks.delete(tenantKey(tenantId, id));
  }

  async listSubscribed(tenantId: string, type: string): Promise<Webhook[]> {
    return this.#ofTenant(tenantId).filter((webhook) => subscribesTo(webhook, type)).map(copyRecord);
  }

  #ofTenant(tenantId: string): Webhook[] {
    return [...this.#webhooks.values()].filter((webhook) => webhook.tenantId === tenantId);
  }
}
