/** Configuration, time, logging, languages and background work: what every other module may depend on. */
import { LanguageCatalogToken, StaticLanguageCatalog, TrackedWork, type Clock, type Logger } from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export interface Infrastructure {
  readonly config: ServiceConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly requestLogger: Logger | undefined;
}

export function infrastructureModule({ config, clock, logger, requestLogger }: Infrastructure): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(ServerTokens.Config).toConstantValue(config);
    bind(ServerTokens.Clock).toConstantValue(clock);
    bind(ServerTokens.Logger).toConstantValue(logger);
    bind(ServerTokens.RequestLogger).toConstantValue(requestLogger);
    bind(LanguageCatalogToken).toConstantValue(new StaticLanguageCatalog(config.languages));
    // What requests start and do not await (a submit's notification enqueue): shutdown waits for it.
    bind(TrackedWork).toConstantValue(new TrackedWork());
  });
}
