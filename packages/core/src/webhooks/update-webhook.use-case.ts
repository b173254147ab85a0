/** PATCH /webhooks/update/{id} (bearer admin): a strict partial body; `{}` changes nothing. */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { optionalFlag, optionalText } from '../shared/input-rules.js';
import { WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import type { CreateWebhookInput } from './create-webhook.use-case.js';
import { findWebhookOrThrow, requireAllowedUrl, webhookEvents, webhookUrl } from './webhook-input.js';
import { toWebhookView, WEBHOOK_DESCRIPTION_MAX, type WebhookView } from './webhook.js';
import type { WebhookChanges, WebhookRepository, WebhookUrlGuard } from './webhooks.ports.js';

export interface UpdateWebhookInput {
  readonly id: string;
  /** The properties to change as sent (absent: none); paths `changes.<property>`. */
  readonly changes: CreateWebhookInput | undefined;
}

export class UpdateWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly guard: WebhookUrlGuard,
    private readonly clock: Clock,
  ) {}

  /** Order: role → `INVALID_WEBHOOK_ID` → `WEBHOOK_NOT_FOUND` → `VALIDATION_FAILED` → `WEBHOOK_URL_NOT_ALLOWED`. */
  async execute(caller: Caller, { id, changes: body }: UpdateWebhookInput): Promise<WebhookView> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const current = await findWebhookOrThrow(this.webhooks, caller.tenantId, id);
    const input = strictPartialBody(body);
    const changes: { -readonly [K in keyof WebhookChanges]: WebhookChanges[K] } = {};
    // `null` sets an optional property back to its default; url and events have none.
    if (input.url !== undefined) changes.url = webhookUrl(input.url, 'changes.url');
    if (input.events !== undefined) changes.events = webhookEvents(input.events, 'changes.events');
    if (input.description !== undefined) changes.description = optionalText(input.description, 'changes.description', WEBHOOK_DESCRIPTION_MAX);
    if (input.enabled !== undefined) changes.enabled = optionalFlag(input.enabled, 'changes.enabled', true);
    if (changes.url !== undefined) await requireAllowedUrl(this.guard, changes.url);
    const updated = await this.webhooks.update(caller.tenantId, current.id, changes, this.clock.now());
    if (!updated) throw new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found');
    return toWebhookView(updated);
  }
}

const UPDATABLE = ['url', 'events', 'description', 'enabled'];

function strictPartialBody(body: unknown): CreateWebhookInput {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw validationError('changes', 'must be an object');
  const unknown = Object.keys(body).find((key) => !UPDATABLE.includes(key));
  if (unknown !== undefined) throw validationError(`changes.${unknown}`, 'is not a property a webhook update accepts');
  return body as CreateWebhookInput;
}
