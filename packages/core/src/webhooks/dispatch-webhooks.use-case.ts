/**
 * Sends what is due in the webhook outbox, each delivery once per attempt: settles events left
 * unconfirmed past their grace period (from the store, by witness), then claims a batch of due
 * deliveries atomically, signs and posts each, and records the outcome — delivered on a 2xx;
 * retried with the notification back-off otherwise; failed once the attempts are used up, or
 * failed without a request when the host resolves to a refused address or the webhook was
 * disabled or unsubscribed (its log then counts only the requests sent and keeps the last
 * answer's status). A delivery of a webhook deleted since it was staged is removed with what is
 * left of its log, as the delete removed the rest (an event staged while the webhook was being
 * deleted).
 */
import { errorText } from '../shared/error-text.js';
import { retryDelayMs, type DispatchReport } from '../notifications/dispatch-notifications.use-case.js';
import { DispatchShares } from '../notifications/dispatch-shares.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { eventPayload } from './webhook-events.js';
import { announcesSameChange, type EventWitnessReader } from './event-witness-reader.js';
import { webhookHeaders } from './sign-webhook.js';
import { subscribesTo } from './webhook.js';
import {
  DELIVERY_LOG_SIZE,
  isWebhookAddressRefused,
  type WebhookDelivery,
  type WebhookDeliveryOutbox,
  type WebhookDeliveryOutcome,
  type WebhookDeliveryPolicy,
  type WebhookRepository,
  type WebhookSender,
} from './webhooks.ports.js';

const ERROR_MAX = 500;

/** The outcome of an attempt that found its webhook deleted: not recorded, the log goes. */
const WEBHOOK_DELETED: WebhookDeliveryOutcome = { status: 'failed', error: 'webhook was deleted', statusCode: null };

/**
 * A final outcome decided before any request: the log keeps counting the requests sent (the claim
 * counted one more) and the status code of the last answer, if any (decision 0799).
 */
function withoutRequest(delivery: WebhookDelivery, error: string): WebhookDeliveryOutcome {
  return { status: 'failed', error, statusCode: delivery.lastStatusCode, withoutRequest: true };
}

export class DispatchWebhooks {
  /** The sends in flight, by webhook and by tenant: each one's share of the places (decisions 0817, 0823). */
  readonly #shares: DispatchShares;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookDeliveryOutbox,
    private readonly witnesses: EventWitnessReader,
    private readonly sender: WebhookSender,
    private readonly policy: WebhookDeliveryPolicy,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.#shares = new DispatchShares(policy.inFlightPerWebhook, policy.inFlightPerTenant);
  }

  /** One pass: settles stale unconfirmed events, then claims and settles up to a batch of due deliveries. */
  async execute(): Promise<DispatchReport> {
    const outcomes = await Promise.all(await this.claimAndSend(this.policy.batchSize));
    const report = { claimed: outcomes.length, sent: 0, retried: 0, failed: 0, skipped: 0 };
    for (const status of outcomes) {
      if (status === 'delivered') report.sent += 1;
      else if (status === 'retry') report.retried += 1;
      else if (status === 'dropped') report.skipped += 1;
      else report.failed += 1;
    }
    return report;
  }

  /**
   * What the dispatch loop runs: settles stale unconfirmed events, claims up to `limit` due
   * deliveries and starts each; resolves once they are claimed, with one promise per delivery that
   * settles once its outcome is recorded.
   */
  async claimAndSend(limit: number): Promise<Array<Promise<WebhookDeliveryOutcome['status'] | 'dropped'>>> {
    await this.#settleUnconfirmed();
    const deliveries = await this.outbox.claimDue(this.clock.now(), this.policy.leaseMs, limit, this.#shares.share());
    return deliveries.map((delivery) => this.#shares.track(delivery.webhookId, this.#settle(delivery), delivery.tenantId));
  }

  /**
   * What the loop waits for after a pass that claimed fewer than its places: a send of a webhook
   * that holds its whole share settling, when one does (its due deliveries were passed over);
   * undefined otherwise.
   */
  heldBack(): Promise<void> | undefined {
    return this.#shares.heldBack();
  }

  async #settleUnconfirmed(): Promise<void> {
    const now = this.clock.now();
    const stagedBefore = new Date(now.getTime() - this.policy.settleUnconfirmedAfterMs);
    const stale = await this.outbox.claimUnconfirmed(stagedBefore, now, this.policy.leaseMs, this.policy.batchSize);
    const events = new Map<string, WebhookDelivery[]>();
    for (const delivery of stale) {
      const ofEvent = events.get(delivery.eventId);
      if (ofEvent) ofEvent.push(delivery);
      else events.set(delivery.eventId, [delivery]);
    }
    for (const deliveries of events.values()) {
      const { tenantId, eventId, type, witness } = deliveries[0]!;
      try {
        const data = await this.witnesses.dataIfHappened(tenantId, witness);
        const again = data !== undefined && (await this.#announcedAgain(deliveries, stagedBefore));
        const at = this.clock.now();
        if (data === undefined || again) await this.outbox.discard(tenantId, eventId);
        else await this.outbox.confirm(tenantId, eventId, eventPayload(type, at, data), at);
        const outcome = data === undefined ? 'discarded' : again ? 'discarded: announced again by a later write' : 'confirmed';
        this.logger.info('unconfirmed webhook event settled', { tenantId, eventId, type, outcome });
      } catch (error) {
        // The claim lapses and a later pass tries again.
        this.logger.error('unconfirmed webhook event could not be settled', { tenantId, eventId, type, error: errorText(error, ERROR_MAX) });
      }
    }
  }

  /**
   * Whether a write staged after this event announced the same change (decision 0821): a client
   * retried the write of a process that died before confirming, and the retry, finding the change
   * still to make (or made, for a delete's record gone), sent its own event. Looked for in the
   * logs of the webhooks this event was for. A later event counts once confirmed, or once it is
   * stale too (this pass or a later one settles it, by a witness that holds as well as this one's);
   * one still in flight does not: its write may yet be refused and discard it.
   */
  async #announcedAgain(deliveries: readonly WebhookDelivery[], stagedBefore: Date): Promise<boolean> {
    for (const { tenantId, webhookId, type, createdAt, eventId, witness } of deliveries) {
      const later = await this.outbox.listStagedAfter(tenantId, webhookId, type, createdAt, eventId);
      const counted = (other: WebhookDelivery) => other.status !== 'unconfirmed' || other.createdAt.getTime() < stagedBefore.getTime();
      if (later.some((other) => counted(other) && announcesSameChange(witness, other.witness))) return true;
    }
    return false;
  }

  async #settle(delivery: WebhookDelivery): Promise<WebhookDeliveryOutcome['status'] | 'dropped'> {
    let outcome: WebhookDeliveryOutcome;
    try {
      outcome = await this.#attempt(delivery);
    } catch (error) {
      outcome = isWebhookAddressRefused(error) ? withoutRequest(delivery, errorText(error, ERROR_MAX)) : this.#afterFailure(delivery, errorText(error, ERROR_MAX), null);
    }
    const fields = { deliveryId: delivery.id, tenantId: delivery.tenantId, webhookId: delivery.webhookId, eventId: delivery.eventId, type: delivery.type, attempt: delivery.attempts };
    if (outcome === WEBHOOK_DELETED) return this.#drop(delivery, fields);
    try {
      await this.outbox.complete(delivery.id, outcome, this.clock.now());
      if (outcome.status !== 'retry') await this.outbox.prune(delivery.tenantId, delivery.webhookId, DELIVERY_LOG_SIZE);
    } catch (error) {
      // The claim lapses and the delivery is tried again: at worst a duplicate the receiver
      // recognises by its webhook-id, never a loss.
      this.logger.error('webhook outcome could not be recorded', { ...fields, outcome: outcome.status, error: errorText(error, ERROR_MAX) });
    }
    if (outcome.status === 'delivered') this.logger.info('webhook delivered', { ...fields, statusCode: outcome.statusCode });
    else if (outcome.status === 'retry') this.logger.warn('webhook attempt failed; will retry', { ...fields, error: outcome.error, nextAttemptAt: outcome.nextAttemptAt.toISOString() });
    else this.logger.error('webhook delivery failed; giving up', { ...fields, error: outcome.error });
    return outcome.status;
  }

  async #attempt(delivery: WebhookDelivery): Promise<WebhookDeliveryOutcome> {
    if (delivery.attempts > this.policy.maxAttempts) return withoutRequest(delivery, `gave up after ${delivery.attempts - 1} attempts without an outcome`);
    const webhook = await this.webhooks.findById(delivery.tenantId, delivery.webhookId);
    if (!webhook) return WEBHOOK_DELETED;
    if (!webhook.enabled) return withoutRequest(delivery, 'webhook is disabled');
    if (!subscribesTo(webhook, delivery.type)) return withoutRequest(delivery, 'webhook no longer subscribes to this event');
    if (delivery.payload === null) return withoutRequest(delivery, 'event has no body');
    const headers = webhookHeaders(webhook.secret, delivery.eventId, this.clock.now(), delivery.payload, delivery.trace);
    const { statusCode } = await this.sender.send({ url: webhook.url, headers, body: delivery.payload });
    if (statusCode >= 200 && statusCode < 300) return { status: 'delivered', statusCode };
    const error = statusCode >= 300 && statusCode < 400 ? `redirect not followed (HTTP ${statusCode})` : `HTTP ${statusCode}`;
    return this.#afterFailure(delivery, error, statusCode);
  }

  async #drop(delivery: WebhookDelivery, fields: Record<string, unknown>): Promise<'dropped' | 'failed'> {
    try {
      await this.outbox.removeByWebhook(delivery.tenantId, delivery.webhookId);
    } catch (error) {
      // The claim lapses and a later pass finds the webhook gone again.
      this.logger.error('delivery of a deleted webhook could not be removed', { ...fields, error: errorText(error, ERROR_MAX) });
      return 'failed';
    }
    this.logger.info('webhook delivery dropped: the webhook was deleted', fields);
    return 'dropped';
  }

  #afterFailure(delivery: WebhookDelivery, error: string, statusCode: number | null): WebhookDeliveryOutcome {
    if (delivery.attempts >= this.policy.maxAttempts) return { status: 'failed', error, statusCode };
    const nextAttemptAt = new Date(this.clock.now().getTime() + retryDelayMs(delivery.attempts, this.policy));
    return { status: 'retry', error, statusCode, nextAttemptAt };
  }
}

