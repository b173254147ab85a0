/**
 * The composition root: one ContainerModule per area. Storage is chosen here (embedded memory or
 * MongoDB); every other module depends only on port tokens.
 */
import type { MongoDatabase } from '@cms/adapter-mongo';
import { Container, type ContainerModule } from 'inversify';
import { aiModule } from './ai.module.js';
import { articlesModule } from './articles.module.js';
import { authorsModule } from './authors.module.js';
import { captchaModule } from './captcha.module.js';
import { commentsModule } from './comments.module.js';
import { contentModule } from './content.module.js';
import { dashboardModule } from './dashboard.module.js';
import { formsModule } from './forms.module.js';
import { guestsModule } from './guests.module.js';
import { httpModule } from './http.module.js';
import { infrastructureModule, type Infrastructure } from './infrastructure.module.js';
import { memoryStorageModule } from './memory-storage.module.js';
import { notificationsModule } from './notifications.module.js';
import { mongoStorageModule } from './mongo-storage.module.js';
import { reactionsModule } from './reactions.module.js';
import { repurposeModule } from './repurpose.module.js';
import { tenancyModule } from './tenancy.module.js';
import { webhooksModule } from './webhooks.module.js';
import { registeredTracer, traceContainerPorts } from '../telemetry/open-telemetry.js';
import { ServerTokens, type StorageLifecycle } from './server-tokens.js';

/** Feature modules, in no particular order: each binds its use cases and its routes. */
const FEATURE_MODULES: readonly ContainerModule[] = [
  tenancyModule,
  captchaModule,
  dashboardModule,
  repurposeModule,
  aiModule,
  notificationsModule,
  formsModule,
  guestsModule,
  authorsModule,
  articlesModule,
  commentsModule,
  reactionsModule,
  webhooksModule,
  contentModule,
];

export interface StorageOverride {
  /** Use the Mongo repositories over this database instead of `config.storage` (tests pass the collection double). */
  readonly mongoDatabase?: MongoDatabase;
}

/** Connects the storage first (MongoDB: connect and ensure indexes), then loads every module. */
export async function buildContainer(infrastructure: Infrastructure, override: StorageOverride = {}): Promise<Container> {
  const storage = await storageModuleFor(infrastructure, override);
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(infrastructure), storage, ...FEATURE_MODULES, httpModule);
  const tracer = registeredTracer();
  if (tracer) traceContainerPorts(container, tracer, container.get<StorageLifecycle>(ServerTokens.Storage).kind === 'mongo' ? 'mongodb' : 'memory');
  return container;
}

function storageModuleFor({ config }: Infrastructure, { mongoDatabase }: StorageOverride): Promise<ContainerModule> | ContainerModule {
  if (mongoDatabase) return mongoStorageModule({ kind: 'database', database: mongoDatabase });
  if (config.storage.kind === 'mongo') return mongoStorageModule(config.storage);
  return memoryStorageModule;
}
