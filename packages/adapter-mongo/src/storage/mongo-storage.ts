/**
 * The adapter's entry point: connects to MongoDB (or wraps a given database, such as the test
 * double), builds one repository per core port, ensures the indexes, removes retired fields,
 * answers readiness pings and closes the client.
 */
import type {
  AiUsageLedger,
  ApiKeyRepository,
  CoreStores,
  DashboardConfigRepository,
  FormRepository,
  NotificationOutbox,
  RepurposeTemplateRepository,
  SubmissionRepository,
  TenantRepository,
  AuthorRepository,
  CategoryRepository,
  ArticleRepository,
  CommentRepository,
  ReactionRepository,
  GuestRateLimiter,
  WebhookDeliveryOutbox,
  WebhookRepository,
} from '@cms/core';
import { MongoClient } from 'mongodb';
import { MongoAiUsageLedger } from '../ai/mongo-ai-usage-ledger.js';
import { MongoDashboardConfigRepository } from '../dashboard/mongo-dashboard-config.repository.js';
import { MongoFormRepository } from '../forms/mongo-form.repository.js';
import { MongoSubmissionRepository } from '../forms/mongo-submission.repository.js';
import { MongoNotificationOutbox } from '../notifications/mongo-notification-outbox.js';
import { MongoRepurposeTemplateRepository } from '../repurpose/mongo-repurpose-template.repository.js';
import { MongoApiKeyRepository, removeClearKeyPrefixes } from '../tenancy/mongo-api-key.repository.js';
import { MongoTenantRepository } from '../tenancy/mongo-tenant.repository.js';
import { MongoAuthorRepository } from '../authors/mongo-author.repository.js';
import { MongoCategoryRepository } from '../articles/mongo-category.repository.js';
import { MongoArticleRepository } from '../articles/mongo-article.repository.js';
import { MongoCommentRepository } from '../comments/mongo-comment.repository.js';
import { MongoReactionRepository } from '../reactions/mongo-reaction.repository.js';
import { MongoGuestRateLimiter } from '../guests/mongo-guest-rate-limiter.js';
import { MongoWebhookDeliveryOutbox } from '../webhooks/mongo-webhook-delivery.outbox.js';
import { MongoWebhookRepository } from '../webhooks/mongo-webhook.repository.js';
import { ensureIndexes } from './mongo-collections.js';
import type { MongoDatabase } from './mongo-database.js';
import { serviceWriteConcern } from './mongo-connection-settings.js';

/** One repository per core port, typed by the port: callers never see a driver type. */
export interface MongoRepositories {
  readonly tenants: TenantRepository;
  readonly apiKeys: ApiKeyRepository;
  readonly dashboardConfigs: DashboardConfigRepository;
  readonly repurposeTemplates: RepurposeTemplateRepository;
  readonly notificationOutbox: NotificationOutbox;
  readonly aiUsage: AiUsageLedger;
  readonly forms: FormRepository;
  readonly submissions: SubmissionRepository;
  readonly authors: AuthorRepository;
  readonly categories: CategoryRepository;
  readonly articles: ArticleRepository;
  readonly comments: CommentRepository;
  readonly reactions: ReactionRepository;
  readonly guestRateLimiter: GuestRateLimiter;
  readonly webhooks: WebhookRepository;
  readonly webhookDeliveries: WebhookDeliveryOutbox;
}

/** Builds the repositories over any database that offers the used driver surface. */
export function createMongoRepositories(db: MongoDatabase): MongoRepositories {
  return {
    tenants: new MongoTenantRepository(db),
    apiKeys: new MongoApiKeyRepository(db),
    dashboardConfigs: new MongoDashboardConfigRepository(db),
    repurposeTemplates: new MongoRepurposeTemplateRepository(db),
    notificationOutbox: new MongoNotificationOutbox(db),
    aiUsage: new MongoAiUsageLedger(db),
    forms: new MongoFormRepository(db),
    submissions: new MongoSubmissionRepository(db),
    authors: new MongoAuthorRepository(db),
    categories: new MongoCategoryRepository(db),
    articles: new MongoArticleRepository(db),
    comments: new MongoCommentRepository(db),
    reactions: new MongoReactionRepository(db),
    guestRateLimiter: new MongoGuestRateLimiter(db),
    webhooks: new MongoWebhookRepository(db),
    webhookDeliveries: new MongoWebhookDeliveryOutbox(db),
  };
}

/**
 * The repositories under the names `createCore` takes them (`stores`): an embedder's core over
 * MongoDB is `createCore({ stores: mongoCoreStores(createMongoRepositories(db)), … })`. The AI
 * usage ledger is not a core store (the service's translate wiring takes it).
 */
export function mongoCoreStores(repositories: MongoRepositories): CoreStores & Required<Pick<CoreStores, 'webhooks' | 'webhookDeliveries'>> {
  const { dashboardConfigs, notificationOutbox, guestRateLimiter, aiUsage: _ledger, ...same } = repositories;
  return { ...same, dashboards: dashboardConfigs, outbox: notificationOutbox, guestLimiter: guestRateLimiter };
}

export interface Closable {
  close(): Promise<void>;
}

export interface MongoConnectOptions {
  /** Shown in the server's logs and `currentOp`; default `cms-service`. */
  readonly appName?: string;
  /** How long to wait for a reachable server; the driver's default is 30 s. */
  readonly serverSelectionTimeoutMS?: number;
}

export class MongoStorage {
  readonly repositories: MongoRepositories;

  private constructor(
    private readonly db: MongoDatabase,
    private readonly client: Closable | undefined,
  ) {
    this.repositories = createMongoRepositories(db);
  }

  /**
   * Connects to `uri` and uses `database`. Fails (and releases the client) when no server answers
   * within the server-selection timeout. The message never contains the URI, which may hold a password.
   */
  static async connect(uri: string, database: string, options: MongoConnectOptions = {}): Promise<MongoStorage> {
    const client = new MongoClient(uri, {
      appName: options.appName ?? 'cms-service',
      writeConcern: serviceWriteConcern(uri),
      ...(options.serverSelectionTimeoutMS === undefined ? {} : { serverSelectionTimeoutMS: options.serverSelectionTimeoutMS }),
    });
    try {
      await client.connect();
    } catch (error) {
      await client.close().catch(() => {});
      throw new Error(`Cannot connect to MongoDB (database ${database}): ${(error as Error).message}`);
    }
    return new MongoStorage(client.db(database), client);
  }

  /** Uses a database someone else owns (tests pass the collection double); `close` closes `client`, if given. */
  static over(db: MongoDatabase, client?: Closable): MongoStorage {
    return new MongoStorage(db, client);
  }

  /** Creates every collection's indexes; idempotent, run at every start-up. */
  ensureIndexes(): Promise<void> {
    return ensureIndexes(this.db);
  }

  /**
   * Removes from stored documents what an earlier version wrote and this one must not keep: the
   * API keys' clear `prefix` (decision 0789). Idempotent; run at every start-up, after the indexes.
   */
  removeRetiredFields(): Promise<void> {
    return removeClearKeyPrefixes(this.db);
  }

  /** True when the server answers `{ ping: 1 }` within `timeoutMs`; never throws. */
  async ping(timeoutMs = 2000): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    const answer = this.db.command({ ping: 1 }).then(
      (reply) => Number(reply.ok) === 1,
      () => false,
    );
    try {
      return await Promise.race([answer, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.client?.close();
  }
}
