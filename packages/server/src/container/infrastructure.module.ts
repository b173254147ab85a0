/** Configuration, time, logging and languages: what every other module may depend on. */
import { LanguageCatalogToken, StaticLanguageCatalog, type Clock, type Logger } from '@cms/core';
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
  });
}
