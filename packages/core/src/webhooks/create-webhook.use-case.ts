/**
 * POST /webhooks/create (bearer admin): the answer alone carries the secret. A tenant has at most
 * `WEBHOOKS_PER_TENANT_MAX` webhooks (decision 0825), counted before the insert: creates racing at
 * the limit may each pass, so it can be passed by as many as race.
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { taggedAs } from '../shared/entity-tag.js';
import { newId } from '../shared/ids.js';
import { optionalFlag, optionalText } from '../shared/input-rules.js';
import { WEBHOOK_ADMIN } from './webhook.js';
import { requireRole } from '../shared/require-user.js';
import { requireAllowedUrl, webhookEvents, webhookUrl } from './webhook-input.js';
import { newWebhookSecret, toWebhookView, WEBHOOK_DESCRIPTION_MAX, WEBHOOKS_PER_TENANT_MAX, type CreatedWebhookView, type Webhook } from './webhook.js';
import type { WebhookRepository, WebhookUrlGuard } from './webhooks.ports.js';
import { requireKnownKeys } from '../shared/shape-rules.js';
import { requireTenantId } from '../tenancy/tenant.js';

export interface CreateWebhookInput {
  readonly url?: unknown;
  readonly events?: unknown;
  readonly description?: unknown;
  readonly enabled?: unknown;
}

const WEBHOOK_KEYS: ReadonlySet<string> = new Set(['url', 'events', 'description', 'enabled']);

export class CreateWebhook {
  static readonly access = WEBHOOK_ADMIN;

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly guard: WebhookUrlGuard,
    private readonly clock: Clock,
  ) {}

  /** Throws `UNAUTHORIZED`, `FORBIDDEN`, `VALIDATION_FAILED`, `WEBHOOK_URL_NOT_ALLOWED`, then `WEBHOOK_LIMIT_REACHED`. */
  async execute(caller: Caller, input: CreateWebhookInput): Promise<CreatedWebhookView> {
    requireTenantId(caller.tenantId);
    requireRole(caller, WEBHOOK_ADMIN.roles);
    requireKnownKeys(input, '', WEBHOOK_KEYS);
    const url = webhookUrl(input.url);
    const events = webhookEvents(input.events);
    const description = optionalText(input.description, 'description', WEBHOOK_DESCRIPTION_MAX);
    const enabled = optionalFlag(input.enabled, 'enabled', true);
    await requireAllowedUrl(this.guard, url);
    if ((await this.webhooks.list(caller.tenantId, { limit: WEBHOOKS_PER_TENANT_MAX })).length >= WEBHOOKS_PER_TENANT_MAX) {
      throw new DomainError(ErrorCodes.WEBHOOK_LIMIT_REACHED, `A tenant may have at most ${WEBHOOKS_PER_TENANT_MAX} webhooks`);
    }
    const now = this.clock.now();
    const webhook: Webhook = {
      id: newId(now, caller.tenantId),
      tenantId: caller.tenantId,
      url,
      events,
      description,
      enabled,
      secret: newWebhookSecret(),
      createdAt: now,
      updatedAt: now,
    };
    await this.webhooks.insert(webhook);
    // The answer alone shows the secret; its tag is its reads' (decision 0784).
    const view = toWebhookView(webhook);
    return taggedAs({ ...view, secret: webhook.secret }, view);
  }
}
