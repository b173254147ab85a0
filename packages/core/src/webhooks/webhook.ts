/**
 * Webhooks (CONTRACT §7): a tenant's subscription of a URL to event types. The secret signs every
 * delivery (Standard Webhooks); it is shown once, in the create answer, and never again: the
 * view below has no `secret`, and nothing logs it.
 */
import { requiresRoles } from '../shared/access.js';
import { PLAIN_HTTP_URL } from '../shared/input-rules.js';
import { randomBytes } from 'node:crypto';

export const WEBHOOK_EVENT_TYPES = [
  'form.created',
  'form.updated',
  'form.deleted',
  'form.submitted',
  'submission.relation.connected',
  'submission.relation.disconnected',
  'submission.deleted',
  'article.created',
  'article.updated',
  'article.deleted',
  'article.reaction.changed',
  'comment.created',
  'comment.approved',
  'comment.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** `["*"]` subscribes to every type, those added later included. */
export const ALL_WEBHOOK_EVENTS = '*';

export const WEBHOOK_URL_MAX = 2048;
/**
 * A webhook URL as it must be written (§7, decision 0799): `http://` or `https://` (any case)
 * right before the host, then no whitespace, control character or backslash. The WHATWG parser
 * would mend each of those silently (`http:/host`, `http:host`, `http:///host`, surrounding
 * spaces, a newline inside, `\` for `/`), so the URL stored would not be the URL sent. It must
 * also parse. A JSON Schema pattern, so the route's schema states the same rule as core. An
 * author's avatar is written by the same rule (`PLAIN_HTTP_URL`).
 */
export const WEBHOOK_URL_PATTERN = `^${PLAIN_HTTP_URL}$`;
export const WEBHOOK_DESCRIPTION_MAX = 500;

/**
 * The most webhooks a tenant may have (decision 0825): each event is staged once per subscribed
 * webhook, so their number multiplies every write's outbox rows and a dispatcher's work.
 */
export const WEBHOOKS_PER_TENANT_MAX = 50;
/** Standard Webhooks secrets carry 24 to 64 random bytes; we use 32 (the HMAC-SHA256 block's half, its output size). */
const SECRET_BYTES = 32;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

export interface Webhook {
  readonly id: string;
  readonly tenantId: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly enabled: boolean;
  readonly secret: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type WebhookView = Omit<Webhook, 'tenantId' | 'secret'>;
export type CreatedWebhookView = WebhookView & { readonly secret: string };

export function toWebhookView({ tenantId: _tenantId, secret: _secret, ...view }: Webhook): WebhookView {
  return { ...view, events: [...view.events] };
}

export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

export function subscribesTo(webhook: Pick<Webhook, 'events' | 'enabled'>, type: string): boolean {
  return webhook.enabled && (webhook.events.includes(ALL_WEBHOOK_EVENTS) || webhook.events.includes(type));
}

/** Who may manage a tenant's webhooks (CONTRACT §7): its admins. */
export const WEBHOOK_ADMIN = requiresRoles('admin');
