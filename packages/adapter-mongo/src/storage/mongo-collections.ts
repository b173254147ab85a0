/**
 * Every collection and every index of the adapter, in one place. `ensureIndexes` creates them at
 * start-up; creating an index that already exists with the same keys and options is a no-op, so
 * it is safe on every start. Rules (docs/decisions/0101-mongo-indexes-and-shard-key.md):
 * tenant-scoped collections put `tenantId` first in every index, so they can be sharded on
 * `{ tenantId: 1 }`; the few global collections say why they are the exception.
 */
import type { IndexDirection } from 'mongodb';
import type { MongoDatabase } from './mongo-database.js';

export const Collections = {
  /** `_id` is the tenant id. Global: small, read by id. */
  tenants: 'tenants',
  /** Global: a key is looked up by its hash before the tenant is known. */
  apiKeys: 'api_keys',
  dashboardConfigs: 'dashboard_configs',
  repurposeTemplates: 'repurpose_templates',
  /** Global: dispatchers claim due jobs of every tenant. */
  notificationOutbox: 'notification_outbox',
  /** AI tokens spent per (tenant, month). */
  aiUsage: 'ai_usage',
  /** Form definitions; a slug is unique per tenant. */
  forms: 'forms',
  /** Submissions of forms, with their relations; every lookup is by `_id` (and tenant). */
  formSubmissions: 'form_submissions',
  authors: 'authors',
  categories: 'categories',
  /** Articles carry their reaction totals (`likes`, `dislikes`). */
  articles: 'articles',
  /** Comments carry their reaction totals (`likes`, `dislikes`). */
  comments: 'comments',
  /** One record per (tenant, target kind, target, actor). */
  reactions: 'reactions',
  /** Webhook subscriptions of a tenant (the secret is kept to sign; never returned after create). */
  webhooks: 'webhooks',
  /** Global: one document per (event, webhook); dispatchers claim due deliveries of every tenant. */
  webhookDeliveries: 'webhook_deliveries',
  /** Guest write counters per (tenant, guest, fixed window); expired by a TTL index. */
  guestRateWindows: 'guest_rate_windows',
} as const;

export type CollectionName = (typeof Collections)[keyof typeof Collections];

export interface IndexDefinition {
  readonly collection: CollectionName;
  readonly name: string;
  readonly keys: Readonly<Record<string, IndexDirection>>;
  readonly unique?: boolean;
  /**
   * Makes it a TTL index: MongoDB deletes a document this many seconds after the date in the
   * index's one field (0: at that date). A TTL index has exactly one field, so it is the one kind
   * of index of a tenant-scoped collection that does not start with `tenantId`.
   */
  readonly expireAfterSeconds?: number;
  /**
   * Holds only the documents that have the index's one field: a marker that a few documents
   * carry for a while, looked for across tenants (decision 0798). Like a TTL index, one field
   * and not `tenantId` first.
   */
  readonly sparse?: boolean;
}

export const INDEXES: readonly IndexDefinition[] = [
  { collection: Collections.apiKeys, name: 'hash_unique', keys: { hash: 1 }, unique: true },
  // `_id` ends both listing indexes: it breaks ties of `createdAt` in the lists' sort (decision 0751).
  { collection: Collections.apiKeys, name: 'tenant_created_id', keys: { tenantId: 1, createdAt: 1, _id: 1 } },
  { collection: Collections.dashboardConfigs, name: 'tenant_user_unique', keys: { tenantId: 1, userId: 1 }, unique: true },
  { collection: Collections.repurposeTemplates, name: 'tenant_unique', keys: { tenantId: 1 }, unique: true },
  { collection: Collections.notificationOutbox, name: 'status_due', keys: { status: 1, nextAttemptAt: 1 } },
  { collection: Collections.notificationOutbox, name: 'status_channel_due', keys: { status: 1, channel: 1, nextAttemptAt: 1 } },
  { collection: Collections.notificationOutbox, name: 'tenant_created_id', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  // §6.4: a deleted form's jobs (the prefix) or an erased submission's are dropped, whatever their
  // status. Replaces `tenant_form_status` (`{tenantId, message.formId, status}`), whose prefix made
  // an erasure read every job of its form (decision 0838; docs/operations.md says to drop it).
  { collection: Collections.notificationOutbox, name: 'tenant_form_submission', keys: { tenantId: 1, 'message.formId': 1, 'message.submissionId': 1 } },
  { collection: Collections.aiUsage, name: 'tenant_month_unique', keys: { tenantId: 1, month: 1 }, unique: true },
  { collection: Collections.forms, name: 'tenant_slug_unique', keys: { tenantId: 1, slug: 1 }, unique: true },
  // The relation fields that target a form, for the cascades of §6.4 (decision 0767); multikey.
  { collection: Collections.forms, name: 'tenant_relation_target', keys: { tenantId: 1, 'sections.fields.relation.formId': 1 } },
  // ...and those it had before an update renamed, retargeted or dropped them (decision 0767); multikey.
  { collection: Collections.forms, name: 'tenant_past_relation_target', keys: { tenantId: 1, 'relationTargets.formId': 1 } },
  // Lists (§6.1, docs/decisions/0761-list-indexes.md): one index per list and filter, equality
  // fields first, then the keyset sort `{createdAt: -1, _id: -1}`, so every page is one range.
  { collection: Collections.forms, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.forms, name: 'tenant_active_created', keys: { tenantId: 1, isActive: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.forms, name: 'tenant_visibility_created', keys: { tenantId: 1, visibility: 1, createdAt: -1, _id: -1 } },
  {
    collection: Collections.forms,
    name: 'tenant_active_visibility_created',
    keys: { tenantId: 1, isActive: 1, visibility: 1, createdAt: -1, _id: -1 },
  },
  { collection: Collections.formSubmissions, name: 'tenant_form_created', keys: { tenantId: 1, formId: 1, createdAt: -1, _id: -1 } },
  // The submissions whose relations hold an id, for an erasure's clean-up (decision 0838): every
  // path under `relations` (a field name is the tenant's), each list element an entry. One
  // wildcard path and not `tenantId` first: a compound wildcard index needs MongoDB 7.0, and ids
  // are unique across tenants, so an id's entries are its own tenant's holders anyway.
  { collection: Collections.formSubmissions, name: 'relations_wildcard', keys: { 'relations.$**': 1 } },
  // Submissions whose notification jobs are not known to be stored, of every tenant (decision 0798).
  { collection: Collections.formSubmissions, name: 'notifications_recover_at', keys: { notificationsRecoverAt: 1 }, sparse: true },
  { collection: Collections.authors, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.categories, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.categories, name: 'tenant_parent_created', keys: { tenantId: 1, parentId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.articles, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.articles, name: 'tenant_author_created', keys: { tenantId: 1, authorId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.articles, name: 'tenant_category_created', keys: { tenantId: 1, categoryId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.articles, name: 'tenant_subcategory_created', keys: { tenantId: 1, subCategoryId: 1, createdAt: -1, _id: -1 } },
  // Both filters (decision 0837): one branch of the `$or` each, the author bound in both.
  { collection: Collections.articles, name: 'tenant_author_category_created', keys: { tenantId: 1, authorId: 1, categoryId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.articles, name: 'tenant_author_subcategory_created', keys: { tenantId: 1, authorId: 1, subCategoryId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.comments, name: 'tenant_article_created', keys: { tenantId: 1, articleId: 1, createdAt: -1, _id: -1 } },
  {
    collection: Collections.comments,
    name: 'tenant_article_status_created',
    keys: { tenantId: 1, articleId: 1, status: 1, createdAt: -1, _id: -1 },
  },
  // Engagement (docs/decisions/0110-mongo-engagement-storage.md). Authors and categories have only their list indexes (above); a read by id is on `_id_`.
  { collection: Collections.articles, name: 'tenant_id', keys: { tenantId: 1, _id: 1 } },
  { collection: Collections.articles, name: 'tenant_author', keys: { tenantId: 1, authorId: 1 } },
  { collection: Collections.comments, name: 'tenant_id', keys: { tenantId: 1, _id: 1 } },
  {
    collection: Collections.reactions,
    name: 'tenant_target_actor_unique',
    keys: { tenantId: 1, targetKind: 1, targetId: 1, actor: 1 },
    unique: true,
  },
  { collection: Collections.webhooks, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.webhooks, name: 'tenant_enabled', keys: { tenantId: 1, enabled: 1 } },
  { collection: Collections.webhookDeliveries, name: 'status_due', keys: { status: 1, nextAttemptAt: 1 } },
  { collection: Collections.webhookDeliveries, name: 'status_webhook_due', keys: { status: 1, webhookId: 1, nextAttemptAt: 1 } },
  { collection: Collections.webhookDeliveries, name: 'tenant_event', keys: { tenantId: 1, eventId: 1 } },
  { collection: Collections.webhookDeliveries, name: 'tenant_webhook_created', keys: { tenantId: 1, webhookId: 1, createdAt: -1, _id: -1 } },
  // The prune's delete: final deliveries behind the kept log, and not the pending backlog (0841).
  { collection: Collections.webhookDeliveries, name: 'tenant_webhook_status_created', keys: { tenantId: 1, webhookId: 1, status: 1, createdAt: -1, _id: -1 } },
  { collection: Collections.guestRateWindows, name: 'tenant_guest_window_unique', keys: { tenantId: 1, guestId: 1, windowStart: 1 }, unique: true },
  { collection: Collections.guestRateWindows, name: 'expires_ttl', keys: { expiresAt: 1 }, expireAfterSeconds: 0 },
];

/** Collections whose indexes may start with something other than `tenantId` (see above). */
export const GLOBAL_COLLECTIONS: readonly CollectionName[] = [Collections.tenants, Collections.apiKeys, Collections.notificationOutbox, Collections.webhookDeliveries];

/** Creates every index; idempotent. A conflicting existing index stops start-up naming it. */
export async function ensureIndexes(db: MongoDatabase): Promise<void> {
  for (const index of INDEXES) {
    try {
      const options = {
        name: index.name,
        ...(index.unique ? { unique: true } : {}),
        ...(index.sparse ? { sparse: true } : {}),
        ...(index.expireAfterSeconds === undefined ? {} : { expireAfterSeconds: index.expireAfterSeconds }),
      };
      await db.collection(index.collection).createIndex({ ...index.keys }, options);
    } catch (error) {
      throw new Error(`Cannot create index ${index.name} on ${index.collection}: ${(error as Error).message}`, { cause: error });
    }
  }
}
