/**
 * The storage ports the embeddable use cases need, and the embedded (in-memory) store that
 * fills them. A service with its own storage passes its own adapters instead, each of which
 * should pass the matching contract suite of `@cms/core/testing`.
 */
import type { ArticleRepository, CategoryRepository } from '../articles/articles.ports.js';
import type { AuthorRepository } from '../authors/authors.ports.js';
import type { CommentRepository } from '../comments/comments.ports.js';
import type { DashboardConfigRepository } from '../dashboard/dashboard.ports.js';
import type { FormRepository, SubmissionRepository } from '../forms/forms.ports.js';
import type { GuestRateLimiter } from '../guests/guests.ports.js';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryAuthorRepository } from '../memory/memory-author.repository.js';
import { MemoryCategoryRepository } from '../memory/memory-category.repository.js';
import { MemoryCommentRepository } from '../memory/memory-comment.repository.js';
import { MemoryDashboardConfigRepository } from '../memory/memory-dashboard-config.repository.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryGuestRateLimiter } from '../memory/memory-guest-rate-limiter.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { MemoryRepurposeTemplateRepository } from '../memory/memory-repurpose-template.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { MemoryApiKeyRepository, MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { MemoryWebhookDeliveryOutbox } from '../memory/memory-webhook-delivery.outbox.js';
import { MemoryWebhookRepository } from '../memory/memory-webhook.repository.js';
import type { NotificationOutbox } from '../notifications/notification.ports.js';
import type { ReactionRepository } from '../reactions/reactions.ports.js';
import type { RepurposeTemplateRepository } from '../repurpose/repurpose.ports.js';
import type { ApiKeyRepository, TenantRepository } from '../tenancy/tenancy.ports.js';
import type { WebhookDeliveryOutbox, WebhookRepository } from '../webhooks/webhooks.ports.js';

export interface CoreStores {
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly forms: FormRepository;
  readonly submissions: SubmissionRepository;
  /** Notification jobs written with each submission; a dispatcher (yours, or the service's) sends them. */
  readonly outbox: NotificationOutbox;
  readonly authors: AuthorRepository;
  readonly categories: CategoryRepository;
  readonly articles: ArticleRepository;
  readonly comments: CommentRepository;
  readonly reactions: ReactionRepository;
  readonly guestLimiter: GuestRateLimiter;
  readonly dashboards: DashboardConfigRepository;
  readonly repurposeTemplates: RepurposeTemplateRepository;
  /** Webhook subscriptions and their deliveries (CONTRACT §7), for a service that sends webhooks itself. */
  readonly webhooks?: WebhookRepository;
  readonly webhookDeliveries?: WebhookDeliveryOutbox;
}

/** A fresh embedded store: every port on core's in-memory adapters, empty. */
export function memoryStores() {
  return {
    tenants: new MemoryTenantRepository(),
    apiKeys: new MemoryApiKeyRepository(),
    forms: new MemoryFormRepository(),
    submissions: new MemorySubmissionRepository(),
    outbox: new MemoryNotificationOutbox(),
    authors: new MemoryAuthorRepository(),
    categories: new MemoryCategoryRepository(),
    articles: new MemoryArticleRepository(),
    comments: new MemoryCommentRepository(),
    reactions: new MemoryReactionRepository(),
    guestLimiter: new MemoryGuestRateLimiter(),
    dashboards: new MemoryDashboardConfigRepository(),
    repurposeTemplates: new MemoryRepurposeTemplateRepository(),
    webhooks: new MemoryWebhookRepository(),
    webhookDeliveries: new MemoryWebhookDeliveryOutbox(),
  } satisfies CoreStores;
}

export type MemoryStores = ReturnType<typeof memoryStores>;
