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
} as const;

export type CollectionName = (typeof Collections)[keyof typeof Collections];

export interface IndexDefinition {
  readonly collection: CollectionName;
  readonly name: string;
  readonly keys: Readonly<Record<string, IndexDirection>>;
  readonly unique?: boolean;
}

export const INDEXES: readonly IndexDefinition[] = [
  { collection: Collections.apiKeys, name: 'hash_unique', keys: { hash: 1 }, unique: true },
  { collection: Collections.apiKeys, name: 'tenant_created', keys: { tenantId: 1, createdAt: 1 } },
  { collection: Collections.dashboardConfigs, name: 'tenant_user_unique', keys: { tenantId: 1, userId: 1 }, unique: true },
  { collection: Collections.repurposeTemplates, name: 'tenant_unique', keys: { tenantId: 1 }, unique: true },
  { collection: Collections.notificationOutbox, name: 'status_due', keys: { status: 1, nextAttemptAt: 1 } },
  { collection: Collections.notificationOutbox, name: 'tenant_created', keys: { tenantId: 1, createdAt: -1 } },
  { collection: Collections.aiUsage, name: 'tenant_month_unique', keys: { tenantId: 1, month: 1 }, unique: true },
  { collection: Collections.forms, name: 'tenant_slug_unique', keys: { tenantId: 1, slug: 1 }, unique: true },
];

/** Collections whose indexes may start with something other than `tenantId` (see above). */
export const GLOBAL_COLLECTIONS: readonly CollectionName[] = [Collections.tenants, Collections.apiKeys, Collections.notificationOutbox];

/** Creates every index; idempotent. A conflicting existing index stops start-up naming it. */
export async function ensureIndexes(db: MongoDatabase): Promise<void> {
  for (const index of INDEXES) {
    try {
      const options = index.unique ? { name: index.name, unique: true } : { name: index.name };
      await db.collection(index.collection).createIndex({ ...index.keys }, options);
    } catch (error) {
      throw new Error(`Cannot create index ${index.name} on ${index.collection}: ${(error as Error).message}`, { cause: error });
    }
  }
}
