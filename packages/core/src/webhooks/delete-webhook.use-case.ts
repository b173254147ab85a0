/** DELETE /webhooks/delete/{id} (bearer admin; `If-Match` as §6.3): the webhook and its delivery log go; it receives nothing more. */
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { checkIfMatch, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
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
    const webhookId = wellFormedIdOr(id, ErrorCodes.INVALID_WEBHOOK_ID);
    // With If-Match the webhook is read to compare its tag, and removed only if it is still the
    // version compared (one conditional delete: a write in between makes it 412). Without, no
    // read first: the one atomic remove tells an unknown webhook apart (one round trip less).
    let expected: Date | undefined;
    if (ifMatch !== undefined) {
      const webhook = await findWebhookOrThrow(this.webhooks, caller.tenantId, webhookId);
      checkIfMatch(ifMatch, () => toWebhookView(webhook));
      expected = versionToMatch(ifMatch, webhook);
    }
    if (!(await this.webhooks.remove(caller.tenantId, webhookId, expected))) {
      throw expected ? preconditionFailed() : new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found');
    }
    // A delivery claimed meanwhile finds no webhook and fails without a request.
    await this.outbox.removeByWebhook(caller.tenantId, webhookId);
  }
}
