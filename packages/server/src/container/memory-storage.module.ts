/** The embedded store: every repository port bound to its in-memory adapter. */
import {
  AiUsageLedgerToken,
  ApiKeyRepositoryToken,
  ArticleRepositoryToken,
  AuthorRepositoryToken,
  CategoryRepositoryToken,
  CommentRepositoryToken,
  GuestRateLimiterToken,
  MemoryArticleRepository,
  MemoryAuthorRepository,
  MemoryCategoryRepository,
  MemoryCommentRepository,
  MemoryGuestRateLimiter,
  MemoryReactionRepository,
  ReactionRepositoryToken,
  DashboardConfigRepositoryToken,
  MemoryAiUsageLedger,
  MemoryApiKeyRepository,
  MemoryDashboardConfigRepository,
  MemoryFormRepository,
  MemorySubmissionRepository,
  FormRepositoryToken,
  SubmissionRepositoryToken,
  MemoryNotificationOutbox,
  MemoryRepurposeTemplateRepository,
  MemoryTenantRepository,
  RepurposeTemplateRepositoryToken,
  NotificationOutboxToken,
  TenantRepositoryToken,
  MemoryWebhookRepository,
  MemoryWebhookDeliveryOutbox,
  WebhookRepositoryToken,
  WebhookDeliveryOutboxToken,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import { ServerTokens, type StorageLifecycle } from './server-tokens.js';

export const memoryStorageModule = new ContainerModule(({ bind }) => {
  const lifecycle: StorageLifecycle = { kind: 'memory', ready: async () => true, close: async () => {} };
  bind(ServerTokens.Storage).toConstantValue(lifecycle);
  bind(TenantRepositoryToken).toConstantValue(new MemoryTenantRepository());
  bind(ApiKeyRepositoryToken).toConstantValue(new MemoryApiKeyRepository());
  bind(DashboardConfigRepositoryToken).toConstantValue(new MemoryDashboardConfigRepository());
  bind(RepurposeTemplateRepositoryToken).toConstantValue(new MemoryRepurposeTemplateRepository());
  bind(NotificationOutboxToken).toConstantValue(new MemoryNotificationOutbox());
  bind(AiUsageLedgerToken).toConstantValue(new MemoryAiUsageLedger());
  bind(FormRepositoryToken).toConstantValue(new MemoryFormRepository());
  bind(SubmissionRepositoryToken).toConstantValue(new MemorySubmissionRepository());
  bind(AuthorRepositoryToken).toConstantValue(new MemoryAuthorRepository());
  bind(CategoryRepositoryToken).toConstantValue(new MemoryCategoryRepository());
  bind(ArticleRepositoryToken).toConstantValue(new MemoryArticleRepository());
  bind(CommentRepositoryToken).toConstantValue(new MemoryCommentRepository());
  bind(ReactionRepositoryToken).toConstantValue(new MemoryReactionRepository());
  bind(GuestRateLimiterToken).toConstantValue(new MemoryGuestRateLimiter());
  bind(WebhookRepositoryToken).toConstantValue(new MemoryWebhookRepository());
  bind(WebhookDeliveryOutboxToken).toConstantValue(new MemoryWebhookDeliveryOutbox());
});
