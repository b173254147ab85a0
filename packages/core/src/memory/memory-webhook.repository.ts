/**
 * In-memory webhooks, keyed by (tenant, id), on the embedded store's seam: stored frozen, handed
 * out shared (decision 0721). Each tenant's keys are indexed, as Mongo's `tenant_enabled` index
 * serves `listSubscribed`: every event-producing write asks, so it must not walk every tenant's
 * webhooks.
 */
import type { WebhookChanges, WebhookPage, WebhookRepository } from '../webhooks/webhooks.ports.js';
import { subscribesTo, type Webhook } from '../webhooks/webhook.js';
import { SnapshotTable, stillAt } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

/** Newest first: createdAt descending, then id descending. */
export function newestFirst(a: { createdAt: Date; id: string }, b: { createdAt: Date; id: string }): number {
  return b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

export class MemoryWebhookRepository implements WebhookRepository {
  readonly #webhooks = new SnapshotTable<Webhook>();
  readonly #keysByTenant = new Map<string, Set<string>>();

  async insert(webhook: Webhook): Promise<void> {
    const key = tenantKey(webhook.tenantId, webhook.id);
    if (!this.#webhooks.insert(key, webhook)) throw new Error(`duplicate webhook id ${webhook.id}`);
    let keys = this.#keysByTenant.get(webhook.tenantId);
    if (!keys) this.#keysByTenant.set(webhook.tenantId, (keys = new Set()));
    keys.add(key);
  }

  async findById(tenantId: string, id: string): Promise<Webhook | null> {
    return this.#webhooks.get(tenantKey(tenantId, id)) ?? null;
  }

  async list(tenantId: string, page: WebhookPage): Promise<Webhook[]> {
    const after = page.after;
    return this.#ofTenant(tenantId)
      .filter((webhook) => !after || newestFirst(after, webhook) < 0)
      .sort(newestFirst)
      .slice(0, page.limit);
  }

  async update(tenantId: string, id: string, changes: WebhookChanges, now: Date, expected?: Date): Promise<Webhook | null> {
    const key = tenantKey(tenantId, id);
    const current = this.#webhooks.get(key);
    if (!current || !stillAt(current, expected)) return null;
    return this.#webhooks.update(key, (stored) => ({ ...stored, ...changes, updatedAt: now })) ?? null;
  }

  async remove(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    if (!this.#webhooks.deleteIf(key, (current) => stillAt(current, expected))) return false;
    const keys = this.#keysByTenant.get(tenantId);
    if (keys?.delete(key) && keys.size === 0) this.#keysByTenant.delete(tenantId);
    return true;
  }

  async listSubscribed(tenantId: string, type: string): Promise<Webhook[]> {
    if (!this.#keysByTenant.has(tenantId)) return [];
    return this.#ofTenant(tenantId).filter((webhook) => subscribesTo(webhook, type));
  }

  #ofTenant(tenantId: string): Webhook[] {
    const webhooks: Webhook[] = [];
    for (const key of this.#keysByTenant.get(tenantId) ?? []) {
      const webhook = this.#webhooks.get(key);
      if (webhook) webhooks.push(webhook);
    }
    return webhooks;
  }
}
