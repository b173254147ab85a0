/**
 * Ports of webhooks: the subscriptions, the delivery outbox (one record per event and webhook,
 * written with the change that caused the event), the HTTP sender and the URL guard.
 */
import type { ClaimShare } from '../notifications/dispatch-shares.js';
import type { NotificationDeliveryPolicy } from '../notifications/notification-delivery.ports.js';
import type { ReactionType } from '../reactions/reaction.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';
import type { Webhook } from './webhook.js';

export interface WebhookPage {
  readonly limit: number;
  /** Strictly older than this record in (createdAt desc, id desc) order. */
  readonly after?: { readonly createdAt: Date; readonly id: string } | undefined;
}

export interface WebhookChanges {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

export interface WebhookRepository {
  insert(webhook: Webhook): Promise<void>;
  findById(tenantId: string, id: string): Promise<Webhook | null>;
  /** Newest first by `createdAt`, then `id` descending. */
  list(tenantId: string, page: WebhookPage): Promise<Webhook[]>;
  /**
   * Applies the changes in one atomic step and returns the webhook after them; null when missing,
   * or, with `expected`, when its `updatedAt` is no longer `expected` (the If-Match write of §6.3).
   */
  update(tenantId: string, id: string, changes: WebhookChanges, now: Date, expected?: Date): Promise<Webhook | null>;
  /**
   * True when it existed and was removed; with `expected`, only while its `updatedAt` is still
   * `expected` (the atomic If-Match of a delete, §6.3): one step, so of racing writers one wins.
   */
  remove(tenantId: string, id: string, expected?: Date): Promise<boolean>;
  /** The tenant's enabled webhooks subscribed to `type` (or to `*`). */
  listSubscribed(tenantId: string, type: string): Promise<Webhook[]>;
}

/**
 * What a staged event claims happened, so an event left unconfirmed (the process died between
 * the change and the confirmation) can be settled later by looking at the store.
 */
export type WitnessRecord = 'form' | 'submission' | 'article' | 'comment';

export type EventWitness =
  | { readonly kind: WitnessRecord; readonly id: string }
  /** `*.updated`: the record exists with the `updatedAt` the update wrote (known before writing). */
  | { readonly kind: 'updated'; readonly record: WitnessRecord; readonly id: string; readonly updatedAt: Date }
  /** `*.deleted`: the record is gone; `data` is the event's data, known before the change (`{id}`, `{id, formId}`…). */
  | { readonly kind: 'deleted'; readonly record: WitnessRecord; readonly id: string; readonly data: Readonly<Record<string, string>> }
  | { readonly kind: 'comment-approved'; readonly id: string }
  /** A relation change: the field holds the related id (`held` absent or true: connected) or no longer holds it (`held: false`: disconnected). */
  | { readonly kind: 'relation'; readonly submissionId: string; readonly fieldName: string; readonly relatedId: string; readonly held?: boolean }
  | { readonly kind: 'reaction'; readonly articleId: string; readonly actor: string; readonly type: ReactionType | null };

/**
 * `unconfirmed`: staged before the change, not deliverable yet. `pending`: confirmed, waiting to
 * be sent (or between retries). `delivered` and `failed` are final.
 */
export type WebhookDeliveryStatus = 'unconfirmed' | 'pending' | 'delivered' | 'failed';
export const WEBHOOK_DELIVERY_STATUSES: readonly WebhookDeliveryStatus[] = ['unconfirmed', 'pending', 'delivered', 'failed'];

export interface NewWebhookDelivery {
  readonly tenantId: string;
  readonly webhookId: string;
  /** The `webhook-id` header: one per event, shared by its deliveries, the same on every retry. */
  readonly eventId: string;
  readonly type: string;
  readonly witness: EventWitness;
  /** The trace of the request that caused the event; each attempt sends a child span of it. */
  readonly trace: TraceContext | null;
}

export interface WebhookDelivery extends NewWebhookDelivery {
  readonly id: string;
  readonly status: WebhookDeliveryStatus;
  /**
   * The exact body sent on every attempt; null until the event is confirmed, and again once the
   * delivery is final (delivered or failed): it is never sent again, and its data may be a
   * submission's values, which an erasure must not find kept here.
   */
  readonly payload: string | null;
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly claimedUntil: Date | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly deliveredAt: Date | null;
  readonly updatedAt: Date;
}

/** The state every delivery is staged in: unconfirmed, no body yet, nothing tried. */
export function stagedDeliveryState(now: Date) {
  return {
    status: 'unconfirmed' as WebhookDeliveryStatus,
    payload: null,
    attempts: 0,
    nextAttemptAt: now,
    claimedUntil: null,
    lastStatusCode: null,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
    updatedAt: now,
  };
}

export type WebhookDeliveryOutcome =
  | { readonly status: 'delivered'; readonly statusCode: number }
  | {
      readonly status: 'failed';
      readonly error: string;
      readonly statusCode: number | null;
      /**
       * Decided before any request (the webhook disabled, the address refused…): the attempt the
       * claim counted is taken back, so `attempts` counts requests sent; `statusCode` is then the
       * delivery's last one.
       */
      readonly withoutRequest?: boolean;
    }
  | { readonly status: 'retry'; readonly error: string; readonly statusCode: number | null; readonly nextAttemptAt: Date };

export interface WebhookDeliveryOutbox {
  /** Stores the deliveries of one event as `unconfirmed`. */
  stage(deliveries: readonly NewWebhookDelivery[], now: Date): Promise<void>;
  /** Makes the event's unconfirmed deliveries pending, due now, with their body. Idempotent. */
  confirm(tenantId: string, eventId: string, payload: string, now: Date): Promise<void>;
  /** Drops the event's unconfirmed deliveries (the change did not happen). Idempotent. */
  discard(tenantId: string, eventId: string): Promise<void>;
  /**
   * Atomically claims up to `limit` pending, due, unleased deliveries until `now + leaseMs`,
   * counting an attempt. Claims take turns between webhooks: each takes the oldest due delivery of
   * the next webhook in id order after the webhook the previous claim took from (this instance's
   * last claim, wrapping round), so one webhook's backlog never fills a batch while another's
   * deliveries wait. With `share`, a webhook is passed over once it has `perReceiver` deliveries
   * in flight, counting those of `share.inFlight` (by webhook id; decision 0817), and of one tenant
   * at most `share.perTenant`, counting those of `share.inFlightByTenant` (decision 0823).
   */
  claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<WebhookDelivery[]>;
  /** Atomically claims up to `limit` unconfirmed, unleased deliveries staged before `stagedBefore`. */
  claimUnconfirmed(stagedBefore: Date, now: Date, leaseMs: number, limit: number): Promise<WebhookDelivery[]>;
  /**
   * Records one attempt's outcome and releases the claim; a final outcome drops the body
   * (`payload`); one `withoutRequest` takes back the attempt its claim counted.
   */
  complete(id: string, outcome: WebhookDeliveryOutcome, now: Date): Promise<void>;
  /** The webhook's deliveries, newest first, unconfirmed ones left out. */
  listByWebhook(tenantId: string, webhookId: string, limit: number): Promise<WebhookDelivery[]>;
  /**
   * The webhook's deliveries of events of `type` staged after `after`, whatever their status,
   * other than event `eventId`'s: what a retry of a write may have announced again while the
   * event it staged first waited to be settled (decision 0821).
   */
  listStagedAfter(tenantId: string, webhookId: string, type: string, after: Date, eventId: string): Promise<WebhookDelivery[]>;
  /** Deletes the webhook's final deliveries beyond its `keep` newest. */
  prune(tenantId: string, webhookId: string, keep: number): Promise<void>;
  /** Deletes every delivery of the webhook (it was deleted). */
  removeByWebhook(tenantId: string, webhookId: string): Promise<void>;
  /** Deliveries of all tenants by status (the `/metrics` gauge); every status present. */
  countByStatus(): Promise<Record<WebhookDeliveryStatus, number>>;
}

export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * Sends one delivery: a POST, no redirects followed, bounded by its own timeout. Resolves with
 * the status code of any answer; rejects on a network failure or timeout (message fit for the
 * delivery log, never the secret), or with `WebhookAddressRefused` before any request when the
 * host resolves to a refused address.
 */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<{ readonly statusCode: number }>;
}

/** Decides whether a URL may receive webhooks (the SSRF guard): resolves its host and checks every address. */
export interface WebhookUrlGuard {
  isAllowed(url: string): Promise<boolean>;
}

const REFUSED = Symbol.for('cms/WebhookAddressRefused');

/** The send-time refusal of the guard: final, never retried. */
export class WebhookAddressRefused extends Error {
  readonly [REFUSED] = true;
  constructor() {
    super('webhook URL resolves to an address that is not allowed');
    this.name = 'WebhookAddressRefused';
  }
}

export function isWebhookAddressRefused(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[REFUSED] === true;
}

/**
 * The notifications' attempts, back-off, lease and batch (NOTIFY_*), and settling; a webhook keeps
 * its latest deliveries by count instead of by age (`DELIVERY_LOG_SIZE`).
 */
export interface WebhookDeliveryPolicy extends Omit<NotificationDeliveryPolicy, 'keepFinishedMs'> {
  /** How long an event may stay unconfirmed before the dispatcher settles it from the store. */
  readonly settleUnconfirmedAfterMs: number;
  /**
   * Most deliveries of one webhook in flight at once (of `batchSize`): a receiver that hangs, or a
   * webhook with a backlog, takes no more places than this while other webhooks' deliveries are due.
   */
  readonly inFlightPerWebhook: number;
  /**
   * Most deliveries of one tenant in flight at once (of `batchSize`), whatever its number of
   * webhooks: a tenant whose receivers hang leaves the other places to other tenants (decision 0823).
   */
  readonly inFlightPerTenant: number;
}

export const WebhookRepositoryToken: PortToken<WebhookRepository> = portToken('WebhookRepository');
export const WebhookDeliveryOutboxToken: PortToken<WebhookDeliveryOutbox> = portToken('WebhookDeliveryOutbox');
export const WebhookSenderToken: PortToken<WebhookSender> = portToken('WebhookSender');
export const WebhookUrlGuardToken: PortToken<WebhookUrlGuard> = portToken('WebhookUrlGuard');
export const WebhookDeliveryPolicyToken: PortToken<WebhookDeliveryPolicy> = portToken('WebhookDeliveryPolicy');

/** Deliveries kept per webhook for its log (CONTRACT §7). */
export const DELIVERY_LOG_SIZE = 100;
