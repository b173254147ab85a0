/** Reads of webhooks (bearer admin): one by id, the list (§6.1 paging), and a webhook's delivery log. */
import type { Caller } from '../shared/caller.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { isWellFormedId } from '../shared/ids.js';
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

export interface ListWebhooksQuery {
  readonly limit?: unknown;
  readonly cursor?: unknown;
}

export interface WebhookListPage {
  readonly webhooks: WebhookView[];
  readonly nextCursor: string | null;
}

const CURSOR_KIND = 'webhooks';

export class ListWebhooks {
  static readonly access = WEBHOOK_ADMIN;

  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(caller: Caller, query: ListWebhooksQuery): Promise<WebhookListPage> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const limit = query.limit === undefined ? 20 : /^[0-9]{1,3}$/.test(String(query.limit)) ? Number(query.limit) : Number.NaN;
    if (!(limit >= 1 && limit <= 100)) throw validationError('limit', 'must be an integer from 1 to 100');
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, caller.tenantId);
    const found = await this.webhooks.list(caller.tenantId, { limit: limit + 1, after });
    const page = found.slice(0, limit);
    const last = page.at(-1);
    return { webhooks: page.map(toWebhookView), nextCursor: found.length > limit && last ? encodeCursor(caller.tenantId, last.createdAt, last.id) : null };
  }
}

/** An opaque position: the last record's (createdAt, id), tagged with the list and tenant it belongs to. */
function encodeCursor(tenantId: string, createdAt: Date, id: string): string {
  return Buffer.from(JSON.stringify([CURSOR_KIND, tenantId, createdAt.getTime(), id])).toString('base64url');
}

function decodeCursor(value: unknown, tenantId: string): { createdAt: Date; id: string } {
  try {
    const [kind, tenant, time, id] = JSON.parse(Buffer.from(String(value), 'base64url').toString('utf8')) as unknown[];
    const ours = kind === CURSOR_KIND && tenant === tenantId;
    if (ours && Number.isSafeInteger(time) && isWellFormedId(id)) return { createdAt: new Date(time as number), id: id.toLowerCase() };
  } catch {
    // falls through to the refusal
  }
  throw new DomainError(ErrorCodes.INVALID_CURSOR, 'Invalid cursor');
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
