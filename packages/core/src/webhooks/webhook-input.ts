/** Checks of webhook create and update bodies: the URL's form, the event list, the description. */
import { DomainError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { exceedsCharacters } from '../shared/shape-rules.js';
import { ALL_WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES, WEBHOOK_URL_MAX, WEBHOOK_URL_PATTERN, type Webhook } from './webhook.js';
import type { WebhookRepository, WebhookUrlGuard } from './webhooks.ports.js';

const PLAIN_URL = new RegExp(WEBHOOK_URL_PATTERN, 'u');

/** The URL as sent, when it is already an absolute http(s) URL written plainly (`WEBHOOK_URL_PATTERN`) that parses. */
export function webhookUrl(value: unknown, path = 'url'): string {
  if (typeof value !== 'string') throw validationError(path, 'must be a string');
  // Characters, not UTF-16 units, as the route schema's maxLength counts them: the pattern lets non-ASCII through.
  if (exceedsCharacters(value, WEBHOOK_URL_MAX)) throw validationError(path, `must be at most ${WEBHOOK_URL_MAX} characters`);
  // The pattern fixes the scheme, so a URL that parses is http or https.
  if (!PLAIN_URL.test(value) || !URL.canParse(value)) throw validationError(path, 'must be an absolute http or https URL');
  return value;
}

export function webhookEvents(value: unknown, path = 'events'): string[] {
  const known: readonly string[] = WEBHOOK_EVENT_TYPES;
  if (!Array.isArray(value) || value.length === 0) throw validationError(path, 'must be a non-empty list of event types');
  const events = [...new Set(value)];
  if (events.includes(ALL_WEBHOOK_EVENTS)) {
    if (events.length > 1) throw validationError(path, 'must be ["*"] alone or a list of event types');
    return [ALL_WEBHOOK_EVENTS];
  }
  // The position in the list as given (`findIndex` visits holes too; `indexOf` finds no NaN).
  const index = value.findIndex((event: unknown) => typeof event !== 'string' || !known.includes(event));
  if (index >= 0) throw validationError(`${path}[${index}]`, `must be one of ${known.join(', ')} or *`);
  return events as string[];
}

/** 400 `Webhook URL is not allowed` when the host is or resolves to a refused address. */
export async function requireAllowedUrl(guard: WebhookUrlGuard, url: string): Promise<void> {
  if (!(await guard.isAllowed(url))) throw new DomainError(ErrorCodes.WEBHOOK_URL_NOT_ALLOWED, 'Webhook URL is not allowed');
}

export async function findWebhookOrThrow(webhooks: WebhookRepository, tenantId: string, id: string): Promise<Webhook> {
  const webhook = await webhooks.findById(tenantId, wellFormedIdOr(id, ErrorCodes.INVALID_WEBHOOK_ID));
  if (!webhook) throw new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found');
  return webhook;
}
