/** DELETE /webhooks/delete/{id} (bearer admin): the webhook and its delivery log go; it receives nothing more. */
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import { findWebhookOrThrow } from './webhook-input.js';
import type { WebhookDeliveryOutbox, WebhookRepository } from './webhooks.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface DeleteWebhookInput {
  readonly id: string;
}

export class DeleteWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookDeliveryOutbox,
  ) {}

  async execute(caller: Caller, { id }: DeleteWebhookInput): Promise<void> {
    requireRole(caller, WEBHOOK_ADMIN.roles);
    const webhook = await findWebhookOrThrow(this.webhooks, caller.tenantId, id);
    if (!(await this.webhooks.remove(caller.tenantId, webhook.id))) throw new DomainError(ErrorCodes.WEBHOOK_NOT_FOUND, 'Webhook not found');
    // A delivery claimed meanwhile finds no webhook and fails without a request.
    await this.outbox.removeByWebhook(caller.tenantId, webhook.id);
  }
}
