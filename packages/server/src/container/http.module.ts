/** The HTTP edge: credentials and the Koa app over every bound route module. */
import {
  createApp,
  createJwtVerifier,
  CredentialResolver,
  RouteModuleToken,
  ServiceMetrics,
  ServingState,
  type BearerVerifier,
  type CmsApp,
  type RouteModule,
} from '@cms/adapter-koa';
import { AuthenticateApiKey, NotificationOutboxToken, type Logger, type NotificationOutbox, WebhookDeliveryOutboxToken, type WebhookDeliveryOutbox } from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { registeredTracer } from '../telemetry/open-telemetry.js';
import { ServerTokens, type StorageLifecycle } from './server-tokens.js';

export const KoaAppToken = Symbol.for('cms/server/KoaApp');

export const httpModule = new ContainerModule(({ bind }) => {
  // One per service: the edge counts requests in it, the shutdown drains through it.
  bind(ServingState).toResolvedValue(() => new ServingState(), []);
  // Built even when CMS_METRICS=false: then no request feeds it and nothing serves it.
  bind(ServiceMetrics).toResolvedValue(
    (outbox: NotificationOutbox, webhooks: WebhookDeliveryOutbox) =>
      new ServiceMetrics({ jobsByStatus: () => outbox.countByStatus(), webhookJobsByStatus: () => webhooks.countByStatus() }),
    [NotificationOutboxToken, WebhookDeliveryOutboxToken],
  );
  bind(ServerTokens.BearerVerifier).toResolvedValue(
    (config: ServiceConfig) =>
      createJwtVerifier({
        ...(config.auth.jwtSecret ? { secret: config.auth.jwtSecret } : {}),
        ...(config.auth.jwtPublicKeyPem ? { publicKeyPem: config.auth.jwtPublicKeyPem } : {}),
      }),
    [ServerTokens.Config],
  );
  bind(CredentialResolver).toResolvedValue(
    (apiKeys: AuthenticateApiKey, bearer: BearerVerifier) => new CredentialResolver(apiKeys, bearer),
    [AuthenticateApiKey, ServerTokens.BearerVerifier],
  );
  bind<CmsApp>(KoaAppToken).toResolvedValue(
    (
      config: ServiceConfig,
      credentials: CredentialResolver,
      modules: RouteModule[],
      logger: Logger,
      requestLogger: Logger | undefined,
      storage: StorageLifecycle,
      serving: ServingState,
      metrics: ServiceMetrics,
    ) => {
      const tracer = registeredTracer();
      return createApp({
        basePath: config.http.basePath,
        bodyLimitBytes: config.http.bodyLimitBytes,
        earlyAnswers: { drainLimitBytes: config.http.drainLimitBytes, lingerMs: config.http.lingerMs },
        serving,
        ...(config.http.corsOrigins ? { cors: { origins: config.http.corsOrigins } } : {}),
        ...(config.http.metrics ? { metrics } : {}),
        ...(tracer ? { tracer } : {}),
        routes: modules.flat(),
        credentials,
        logger,
        ...(requestLogger ? { requestLogger } : {}),
        readiness: () => storage.ready(),
        openApi: {
          title: 'CMS service',
          version: '1.0.0',
          description: 'Multi-tenant content-management API. Every operation needs the x-api-key header.',
          languages: config.languages,
        },
      });
    },
    [
      ServerTokens.Config,
      CredentialResolver,
      { serviceIdentifier: RouteModuleToken, isMultiple: true },
      ServerTokens.Logger,
      ServerTokens.RequestLogger,
      ServerTokens.Storage,
      ServingState,
      ServiceMetrics,
    ],
  );
});
