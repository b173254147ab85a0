/**
 * PATCH /webhooks/update/{id} (bearer admin): a strict partial body; `{}` changes nothing. §6.3's
 * `If-Match` holds (`conditionalUpdate`): the write is conditioned on the `updatedAt` that was read.
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { conditionalUpdate, type UpdateRequest } from '../shared/conditional-update.js';
import { DomainError, validationError } from '../shared/domain-error.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { requireObject } from '../shared/shape-rules.js';
import { optionalFlag, optionalText, wellFormedIdOr } from '../shared/input-rules.js';
import { WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import type { CreateWebhookInput } from './create-webhook.use-case.js';
import { requireAllowedUrl, webhookEvents, webhookUrl } from './webhook-input.js';
import { toWebhookView, WEBHOOK_DESCRIPTION_MAX, type WebhookView } from './webhook.js';
import type { WebhookChanges, WebhookRepository, WebhookUrlGuard } from './webhooks.ports.js';

export interface UpdateWebhookInput {
  readonly id: string;
  /** The properties to change as sent (absent: none); paths `changes.<property>`. */
  readonly changes: CreateWebhookInput | undefined;
  /** The request's `If-Match` value, if any (§6.3). */
  readonly ifMatch?: string | undefined;
}

export class UpdateWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly guard: WebhookUrlGuard,
    private readonly clock: Clock,
  ) {}

  /**
   * Order: role → `INVALID_WEBHOOK_ID` → `WEBHOOK_NOT_FOUND` → `PRECONDITION_FAILED` →
   * `VALIDATION_FAILED` → `WEBHOOK_URL_NOT_ALLOWED`.
   */
  async execute(caller: Caller, { id, changes: body, ifMatch }: UpdateWebhookInput): Promise<WebhookView> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const { tenantId } = caller;
    const webhookId = wellFormedIdOr(id, ErrorCodes.INVALID_WEBHOOK_ID);
    let changes: WebhookChanges = {};
    const updated = await conditionalUpdate(body, { ifMatch, checkShape: (shape) => void strictPartialBody(shape) }, {
      key: `webhook\0${tenantId}\0${webhookId}`,
      read: () => this.webhooks.findById(tenantId, webhookId),
      notFound: () => new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found'),
      view: toWebhookView,
      build: async (current) => {
        changes = await this.#changesOf(body);
        return { ...current, ...changes, updatedAt: nextUpdatedAt(current.updatedAt, this.clock.now()) };
      },
      write: async (next, expected) => (await this.webhooks.update(tenantId, webhookId, changes, next.updatedAt, expected)) !== null,
    });
    return toWebhookView(updated);
  }

  async #changesOf(body: unknown): Promise<WebhookChanges> {
    const input = strictPartialBody(body);
    const changes: { -readonly [K in keyof WebhookChanges]: WebhookChanges[K] } = {};
    // `null` sets an optional property back to its default; url and events have none.
    if (input.url !== undefined) changes.url = webhookUrl(input.url, 'changes.url');
    if (input.events !== undefined) changes.events = webhookEvents(input.events, 'changes.events');
    if (input.description !== undefined) changes.description = optionalText(input.description, 'changes.description', WEBHOOK_DESCRIPTION_MAX);
    if (input.enabled !== undefined) changes.enabled = optionalFlag(input.enabled, 'changes.enabled', true);
    if (changes.url !== undefined) await requireAllowedUrl(this.guard, changes.url);
    return changes;
  }
}

const UPDATABLE = ['url', 'events', 'description', 'enabled'];

function strictPartialBody(body: unknown): CreateWebhookInput {
  if (body === undefined) return {};
  requireObject(body, 'changes');
  const unknown = Object.keys(body).find((key) => !UPDATABLE.includes(key));
  if (unknown !== undefined) throw validationError(`changes.${unknown}`, 'is not a property a webhook update accepts');
  return body as CreateWebhookInput;
}
