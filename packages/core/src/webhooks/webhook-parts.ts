/**
 * Webhooks for a service that embeds core (CONTRACT §7): the event recorder the writing use cases
 * share, the management use cases, and the delivery dispatcher on a `DispatchLoop`. `createCore`
 * builds them from its `webhooks` option; the HTTP service binds the same parts from its
 * `WEBHOOK_*` and `NOTIFY_*` settings.
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import type { FormRepository, SubmissionRepository } from '../forms/forms.ports.js';
import { DispatchLoop } from '../notifications/dispatch-loop.js';
import { DEFAULT_NOTIFICATION_DISPATCH } from '../notifications/notification-dispatcher.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { Clock } from '../shared/clock.js';
import { definedOnly } from '../shared/defined-only.js';
import type { Logger } from '../shared/logger.js';
import type { PageCursors } from '../shared/page-cursor.js';
import { CreateWebhook } from './create-webhook.use-case.js';
import { DeleteWebhook } from './delete-webhook.use-case.js';
import { DispatchWebhooks } from './dispatch-webhooks.use-case.js';
import { EventWitnessReader } from './event-witness-reader.js';
import { GetWebhook, ListWebhookDeliveries, ListWebhooks } from './read-webhooks.use-case.js';
import { UpdateWebhook } from './update-webhook.use-case.js';
import { WebhookEvents } from './webhook-events.js';
import type { WebhookDeliveryOutbox, WebhookDeliveryPolicy, WebhookRepository, WebhookSender, WebhookUrlGuard } from './webhooks.ports.js';

/**
 * The service's defaults (`WEBHOOK_*` and `NOTIFY_*` unset): the notifications' pace and
 * back-off (CONTRACT §7), 50 deliveries in flight at most, 10 of them for one webhook and 25
 * for one tenant, an unconfirmed event settled after 5 minutes.
 */
export const DEFAULT_WEBHOOK_DISPATCH = {
  intervalMs: DEFAULT_NOTIFICATION_DISPATCH.intervalMs,
  batchSize: 50,
  maxAttempts: DEFAULT_NOTIFICATION_DISPATCH.maxAttempts,
  retryBaseMs: DEFAULT_NOTIFICATION_DISPATCH.retryBaseMs,
  retryMaxMs: DEFAULT_NOTIFICATION_DISPATCH.retryMaxMs,
  leaseMs: DEFAULT_NOTIFICATION_DISPATCH.leaseMs,
  settleUnconfirmedAfterMs: 300_000,
  inFlightPerWebhook: 10,
  inFlightPerTenant: 25,
} as const satisfies WebhookDeliveryPolicy & { intervalMs: number };

export interface WebhookOptions extends Partial<WebhookDeliveryPolicy> {
  /** Posts each delivery: `HttpWebhookSender` of `@cms/adapter-notify`, or your own. */
  readonly sender: WebhookSender;
  /**
   * Decides which URLs a webhook may have (the SSRF guard): `AddressWebhookUrlGuard` of
   * `@cms/adapter-notify` refuses loopback and private addresses, as the service does.
   */
  readonly urlGuard: WebhookUrlGuard;
  /** Wait between passes when nothing more is due (default 1000 ms). */
  readonly intervalMs?: number;
}

/** What the parts need: the webhook stores, and the records an event left unconfirmed is settled from. */
export interface WebhookPorts {
  readonly forms: FormRepository;
  readonly submissions: SubmissionRepository;
  readonly articles: ArticleRepository;
  readonly comments: CommentRepository;
  readonly reactions: ReactionRepository;
  readonly webhooks: WebhookRepository;
  readonly deliveries: WebhookDeliveryOutbox;
  readonly cursors: PageCursors;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** A tenant's share of the places when none is set: half of them, rounded up (decision 0823). */
export const tenantShareOf = (batchSize: number): number => Math.ceil(batchSize / 2);

export function webhookParts(ports: WebhookPorts, options: WebhookOptions) {
  const { sender, urlGuard, intervalMs, ...overrides } = options;
  const given = definedOnly(overrides);
  const batchSize = given.batchSize ?? DEFAULT_WEBHOOK_DISPATCH.batchSize;
  const policy: WebhookDeliveryPolicy = { ...DEFAULT_WEBHOOK_DISPATCH, inFlightPerTenant: tenantShareOf(batchSize), ...given };
  const { webhooks, deliveries, clock, logger } = ports;
  const dispatch = new DispatchWebhooks(webhooks, deliveries, new EventWitnessReader(ports), sender, policy, clock, logger);
  const loopOptions = { intervalMs: intervalMs ?? DEFAULT_WEBHOOK_DISPATCH.intervalMs, batchSize: policy.batchSize, label: 'webhook' };
  return {
    /** What every writing use case records its event through (decision 0780). */
    events: new WebhookEvents(webhooks, deliveries, clock, logger),
    create: new CreateWebhook(webhooks, urlGuard, clock),
    list: new ListWebhooks(webhooks, ports.cursors),
    get: new GetWebhook(webhooks),
    update: new UpdateWebhook(webhooks, urlGuard, clock),
    remove: new DeleteWebhook(webhooks, deliveries),
    deliveries: new ListWebhookDeliveries(webhooks, deliveries),
    /** One pass, for a caller that runs its own schedule (a cron job, a test). */
    dispatch,
    /** The background loop: `start()` once the service is up, `await stop()` before closing the store. */
    dispatcher: new DispatchLoop(dispatch, loopOptions, logger),
  };
}

/** Everything `webhookParts` built. */
export type WebhookParts = ReturnType<typeof webhookParts>;
