/**
 * MongoDB storage: every repository port bound to its Mongo repository, and the storage
 * lifecycle (readiness pings the server, shutdown closes the client). Indexes are ensured before
 * the module is returned, so the service never serves on a database without them; fields an
 * earlier version stored and this one must not keep are removed then too (decision 0789).
 */
import { MongoStorage, type MongoDatabase } from '@cms/adapter-mongo';
import {
  AiUsageLedgerToken,
  ApiKeyRepositoryToken,
  DashboardConfigRepositoryToken,
  FormRepositoryToken,
  NotificationOutboxToken,
  RepurposeTemplateRepositoryToken,
  SubmissionRepositoryToken,
  TenantRepositoryToken,
  AuthorRepositoryToken,
  CategoryRepositoryToken,
  ArticleRepositoryToken,
  CommentRepositoryToken,
  ReactionRepositoryToken,
  GuestRateLimiterToken,
  WebhookRepositoryToken,
  WebhookDeliveryOutboxToken,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { StorageConfig } from '../config/service-config.js';
import { ServerTokens, type StorageLifecycle } from './server-tokens.js';

/** Where the Mongo repositories live: a server to connect to, or a database handed in (tests). */
export type MongoTarget =
  | Extract<StorageConfig, { kind: 'mongo' }>
  | { readonly kind: 'database'; readonly database: MongoDatabase };

export async function mongoStorageModule(target: MongoTarget): Promise<ContainerModule> {
  const storage = target.kind === 'mongo' ? await MongoStorage.connect(target.uri, target.database) : MongoStorage.over(target.database);
  try {
    await storage.ensureIndexes();
    await storage.removeRetiredFields();
  } catch (error) {
    await storage.close();
    throw error;
  }
  const lifecycle: StorageLifecycle = { kind: 'mongo', ready: () => storage.ping(), close: () => storage.close() };
  const { repositories } = storage;
  return new ContainerModule(({ bind }) => {
    bind(ServerTokens.Storage).toConstantValue(lifecycle);
    bind(TenantRepositoryToken).toConstantValue(repositories.tenants);
    bind(ApiKeyRepositoryToken).toConstantValue(repositories.apiKeys);
    bind(DashboardConfigRepositoryToken).toConstantValue(repositories.dashboardConfigs);
    bind(RepurposeTemplateRepositoryToken).toConstantValue(repositories.repurposeTemplates);
    bind(NotificationOutboxToken).toConstantValue(repositories.notificationOutbox);
    bind(AiUsageLedgerToken).toConstantValue(repositories.aiUsage);
    bind(FormRepositoryToken).toConstantValue(repositories.forms);
    bind(SubmissionRepositoryToken).toConstantValue(repositories.submissions);
    bind(AuthorRepositoryToken).toConstantValue(repositories.authors);
    bind(CategoryRepositoryToken).toConstantValue(repositories.categories);
    bind(ArticleRepositoryToken).toConstantValue(repositories.articles);
    bind(CommentRepositoryToken).toConstantValue(repositories.comments);
    bind(ReactionRepositoryToken).toConstantValue(repositories.reactions);
    bind(GuestRateLimiterToken).toConstantValue(repositories.guestRateLimiter);
    bind(WebhookRepositoryToken).toConstantValue(repositories.webhooks);
    bind(WebhookDeliveryOutboxToken).toConstantValue(repositories.webhookDeliveries);
  });
}
