/**
 * Every repository contract suite of core, run on the Mongo repositories twice: over the mingo
 * collection double (always) and on a real MongoDB (when MONGODB_URI is set; skipped otherwise).
 */
import {
  apiKeyRepositoryContract,
  dashboardConfigRepositoryContract,
  formRepositoryContract,
  notificationOutboxContract,
  aiUsageLedgerContract,
  repurposeTemplateRepositoryContract,
  submissionRepositoryContract,
  tenantRepositoryContract,
  authorRepositoryContract,
  categoryRepositoryContract,
  articleRepositoryContract,
  commentRepositoryContract,
  reactionRepositoryContract,
  guestRateLimiterContract,
  webhookRepositoryContract,
  webhookDeliveryOutboxContract,
  keysetListContract,
  conditionalUpdateContract,
  contentDeleteContract,
} from '@cms/core/testing/contracts';
import { ensureIndexes } from './storage/mongo-collections.js';
import { createMongoRepositories, type MongoRepositories } from './storage/mongo-storage.js';
import { MingoDatabaseDouble } from './testing/mingo-database-double.js';
import { useRealMongoServer } from './testing/real-mongo-server.js';

function runContracts(name: string, fresh: () => Promise<MongoRepositories>): void {
  tenantRepositoryContract(name, async () => ({ repository: (await fresh()).tenants }));
  apiKeyRepositoryContract(name, async () => ({ repository: (await fresh()).apiKeys }));
  dashboardConfigRepositoryContract(name, async () => ({ repository: (await fresh()).dashboardConfigs }));
  repurposeTemplateRepositoryContract(name, async () => ({ repository: (await fresh()).repurposeTemplates }));
  notificationOutboxContract(name, async () => ({ repository: (await fresh()).notificationOutbox }));
  aiUsageLedgerContract(name, async () => ({ repository: (await fresh()).aiUsage }));
  formRepositoryContract(name, async () => ({ repository: (await fresh()).forms }));
  submissionRepositoryContract(name, async () => ({ repository: (await fresh()).submissions }));
  authorRepositoryContract(name, async () => ({ repository: (await fresh()).authors }));
  categoryRepositoryContract(name, async () => ({ repository: (await fresh()).categories }));
  articleRepositoryContract(name, async () => ({ repository: (await fresh()).articles }));
  commentRepositoryContract(name, async () => ({ repository: (await fresh()).comments }));
  reactionRepositoryContract(name, async () => ({ repository: (await fresh()).reactions }));
  guestRateLimiterContract(name, async () => ({ repository: (await fresh()).guestRateLimiter }));
  webhookRepositoryContract(name, async () => ({ repository: (await fresh()).webhooks }));
  webhookDeliveryOutboxContract(name, async () => {
    const repositories = await fresh();
    return { repository: { outbox: repositories.webhookDeliveries, webhooks: repositories.webhooks } };
  });
  keysetListContract(name, async () => ({ repository: await fresh() }));
  conditionalUpdateContract(name, async () => ({ repository: await fresh() }));
  contentDeleteContract(name, async () => ({ repository: await fresh() }));
}

describe('Mongo repositories on the mingo collection double', () => {
  runContracts('mongo on the collection double', async () => {
    const db = new MingoDatabaseDouble();
    await ensureIndexes(db);
    return createMongoRepositories(db);
  });
});

describe('Mongo repositories on a real MongoDB server (needs MONGODB_URI)', () => {
  runContracts('mongo on a real server', useRealMongoServer());
});
