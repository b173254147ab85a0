/**
 * The composition root: one ContainerModule per area. Storage is chosen here (embedded memory or
 * MongoDB); every other module depends only on port tokens.
 */
import { Container, type ContainerModule } from 'inversify';
import { articlesModule } from './articles.module.js';
import { authorsModule } from './authors.module.js';
import { captchaModule } from './captcha.module.js';
import { commentsModule } from './comments.module.js';
import { dashboardModule } from './dashboard.module.js';
import { guestsModule } from './guests.module.js';
import { httpModule } from './http.module.js';
import { infrastructureModule, type Infrastructure } from './infrastructure.module.js';
import { memoryStorageModule } from './memory-storage.module.js';
import { reactionsModule } from './reactions.module.js';
import { repurposeModule } from './repurpose.module.js';
import { tenancyModule } from './tenancy.module.js';

/** Feature modules, in no particular order: each binds its use cases and its routes. */
const FEATURE_MODULES: readonly ContainerModule[] = [
  tenancyModule,
  captchaModule,
  dashboardModule,
  repurposeModule,
  guestsModule,
  authorsModule,
  articlesModule,
  commentsModule,
  reactionsModule,
];

export async function buildContainer(infrastructure: Infrastructure): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(infrastructure), storageModuleFor(infrastructure), ...FEATURE_MODULES, httpModule);
  return container;
}

function storageModuleFor({ config }: Infrastructure): ContainerModule {
  if (config.storage.kind === 'memory') return memoryStorageModule;
  throw new Error('MONGODB_URI is set, but this build has no MongoDB adapter yet');
}
