/** DELETE /webhooks/delete/{id} (bearer admin; `If-Match` as §6.3): the webhook and its delivery log go; it receives nothing more. */
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { checkIfMatch, claimedVersion, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { toWebhookView, WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import { findWebhookOrThrow } from './webhook-input.js';
import type { WebhookDeliveryOutbox, WebhookRepository } from './webhooks.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface DeleteWebhookInput {
  readonly id: string;
  /** The request's `If-Match` value, if any (§6.3). */
  readonly ifMatch?: string | undefined;
}

export class DeleteWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookDeliveryOutbox,
  ) {}

  async execute(caller: Caller, { id, ifMatch }: DeleteWebhookInput): Promise<void> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const { tenantId } = caller;
    const webhookId = wellFormedIdOr(id, ErrorCodes.INVALID_WEBHOOK_ID);
    if (ifMatch !== undefined) await this.#claim(tenantId, webhookId, ifMatch);
    // The log first and the webhook last (decision 0763): a process killed in between leaves a
    // webhook without its log, never a log no one can reach, and a retry finishes the job.
    await this.outbox.removeByWebhook(tenantId, webhookId);
    if (!(await this.webhooks.remove(tenantId, webhookId))) throw new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found');
    // A delivery staged meanwhile, by an event that read the subscribers before the delete (a
    // dispatcher that claims one later finds no webhook and removes it too: decision 0780).
    await this.outbox.removeByWebhook(tenantId, webhookId);
  }

  /**
   * `If-Match` against the webhook as stored, made atomic by one conditional write that claims
   * that version before its log goes (decision 0765): a delete that loses to an update changes
   * nothing.
   */
  async #claim(tenantId: string, webhookId: string, ifMatch: string): Promise<void> {
    const webhook = await findWebhookOrThrow(this.webhooks, tenantId, webhookId);
    checkIfMatch(ifMatch, () => toWebhookView(webhook));
    const expected = versionToMatch(ifMatch, webhook);
    if (expected && !(await this.webhooks.update(tenantId, webhookId, {}, claimedVersion(webhook), expected))) throw preconditionFailed();
  }
}
