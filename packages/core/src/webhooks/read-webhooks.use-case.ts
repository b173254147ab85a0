/** Reads of webhooks (bearer admin): one by id, the list (§6.1 paging), and a webhook's delivery log. */
import type { Caller } from '../shared/caller.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import { WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import { findWebhookOrThrow } from './webhook-input.js';
import { toWebhookView, type WebhookView } from './webhook.js';
import { DELIVERY_LOG_SIZE, type WebhookDeliveryOutbox, type WebhookDeliveryStatus, type WebhookRepository } from './webhooks.ports.js';

/** A webhook, by its id as the caller gave it. */
export interface WebhookIdInput {
  readonly id: string;
}

export class GetWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, { id }: WebhookIdInput): Promise<WebhookView> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    return toWebhookView(await findWebhookOrThrow(this.webhooks, caller.tenantId, id));
  }
}

export type ListWebhooksQuery = PageInput;

export interface WebhookListPage {
  readonly webhooks: WebhookView[];
  readonly nextCursor: string | null;
}

/** §6.1 paging: the service's signed cursors, scoped to this list and tenant. */
export class ListWebhooks {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, query: ListWebhooksQuery): Promise<WebhookListPage> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const { tenantId } = caller;
    const page = await readPage(this.cursors, listScope('webhooks', tenantId), query, ({ after, limit }) =>
      this.webhooks.list(tenantId, { limit, after: after ?? undefined }),
    );
    return { webhooks: page.items.map(toWebhookView), nextCursor: page.nextCursor };
  }
}

export interface DeliveryView {
  readonly eventId: string;
  readonly type: string;
  readonly status: Exclude<WebhookDeliveryStatus, 'unconfirmed'>;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
}

export class ListWebhookDeliveries {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookDeliveryOutbox,
  ) {}

  /** The latest 100 deliveries, newest first. */
  async execute(caller: Caller, { id }: WebhookIdInput): Promise<DeliveryView[]> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const webhook = await findWebhookOrThrow(this.webhooks, caller.tenantId, id);
    const deliveries = await this.outbox.listByWebhook(caller.tenantId, webhook.id, DELIVERY_LOG_SIZE);
    return deliveries.map(({ eventId, type, status, attempts, lastStatusCode, lastError, createdAt, deliveredAt }) => ({
      eventId,
      type,
      status: status === 'unconfirmed' ? 'pending' : status,
      attempts,
      lastStatusCode,
      lastError,
      createdAt,
      deliveredAt,
    }));
  }
}
