/**
 * @cms/adapter-mongo — MongoDB storage adapter of the CMS service: one repository per core port on
 * the official driver, the collection and index definitions, and `MongoStorage` to connect, ensure
 * indexes, ping and close. Repositories speak core domain types only.
 */
export * from './storage/mongo-storage.js';
export * from './storage/mongo-connection-settings.js';
export * from './storage/mongo-collections.js';
export type { MongoCollection, MongoDatabase } from './storage/mongo-database.js';
export { isDuplicateKeyError } from './storage/duplicate-key.js';
export * from './tenancy/mongo-tenant.repository.js';
export * from './tenancy/mongo-api-key.repository.js';
export * from './dashboard/mongo-dashboard-config.repository.js';
export * from './repurpose/mongo-repurpose-template.repository.js';
export * from './notifications/mongo-notification-outbox.js';
export * from './ai/mongo-ai-usage-ledger.js';
export * from './forms/mongo-form.repository.js';
export * from './forms/mongo-submission.repository.js';
export * from './authors/mongo-author.repository.js';
export * from './articles/mongo-category.repository.js';
export * from './articles/mongo-article.repository.js';
export * from './comments/mongo-comment.repository.js';
export * from './reactions/mongo-reaction.repository.js';
export * from './guests/mongo-guest-rate-limiter.js';
export * from './webhooks/mongo-webhook.repository.js';
export * from './webhooks/mongo-webhook-delivery.outbox.js';
