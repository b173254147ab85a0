/**
 * Webhooks (CONTRACT §7): the event recorder the writing use cases share, the management use
 * cases and routes, and the delivery dispatcher on the notification dispatch loop, all built by
 * core's `webhookParts` from the settings here. The SSRF guard and the HTTP sender come from
 * adapter-notify unless a test or embedder binds its own.
 */
import { RouteModuleToken, webhookRoutes } from '@cms/adapter-koa';
import { AddressWebhookUrlGuard, HttpWebhookSender } from '@cms/adapter-notify';
import {
  ArticleRepositoryToken,
  CommentRepositoryToken,
  CreateWebhook,
  DeleteWebhook,
  DispatchWebhooks,
  FormRepositoryToken,
  GetWebhook,
  ListWebhookDeliveries,
  ListWebhooks,
  PageCursorsToken,
  type PageCursors,
  ReactionRepositoryToken,
  SubmissionRepositoryToken,
  UpdateWebhook,
  WebhookDeliveryOutboxToken,
  WebhookDeliveryPolicyToken,
  WebhookEventRecorderToken,
  WebhookRepositoryToken,
  WebhookSenderToken,
  WebhookUrlGuardToken,
  type ArticleRepository,
  type Clock,
  type CommentRepository,
  type FormRepository,
  type Logger,
  type ReactionRepository,
  type SubmissionRepository,
  type WebhookDeliveryOutbox,
  type WebhookDeliveryPolicy,
  type WebhookParts,
  type WebhookRepository,
  type WebhookSender,
  type WebhookUrlGuard,
  webhookParts,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const WebhookDispatchLoopToken = Symbol.for('cms/server/WebhookDispatchLoop');
const WebhookPartsToken = Symbol.for('cms/server/WebhookParts');

export const webhooksModule = new ContainerModule(({ bind }) => {
  bind(WebhookUrlGuardToken).toResolvedValue(
    ({ webhooks }: ServiceConfig, logger: Logger) => {
      if (webhooks.allowPrivateNetworks) {
        logger.warn('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true: webhooks may be sent to loopback and private addresses (the SSRF guard is off)');
      }
      return new AddressWebhookUrlGuard({ allowPrivateNetworks: webhooks.allowPrivateNetworks });
    },
    [ServerTokens.Config, ServerTokens.Logger],
  );
  bind(WebhookSenderToken).toResolvedValue(
    ({ webhooks }: ServiceConfig) => new HttpWebhookSender({ allowPrivateNetworks: webhooks.allowPrivateNetworks, timeoutMs: webhooks.timeoutMs }),
    [ServerTokens.Config],
  );
  bind(WebhookDeliveryPolicyToken).toResolvedValue(
    ({ notify, webhooks }: ServiceConfig): WebhookDeliveryPolicy => ({
      maxAttempts: notify.maxAttempts,
      retryBaseMs: notify.retryBaseMs,
      retryMaxMs: notify.retryMaxMs,
      leaseMs: webhooks.leaseMs,
      batchSize: webhooks.batchSize,
      settleUnconfirmedAfterMs: webhooks.settleUnconfirmedAfterMs,
      inFlightPerWebhook: webhooks.inFlightPerWebhook,
      inFlightPerTenant: webhooks.inFlightPerTenant,
    }),
    [ServerTokens.Config],
  );
  // One set of parts, built as `createCore({ webhooks })` builds them (decision 0794); each token below is a part of it.
  bind(WebhookPartsToken).toResolvedValue(
    (
      webhooks: WebhookRepository,
      deliveries: WebhookDeliveryOutbox,
      forms: FormRepository,
      submissions: SubmissionRepository,
      articles: ArticleRepository,
      comments: CommentRepository,
      reactions: ReactionRepository,
      cursors: PageCursors,
      sender: WebhookSender,
      urlGuard: WebhookUrlGuard,
      policy: WebhookDeliveryPolicy,
      config: ServiceConfig,
      clock: Clock,
      logger: Logger,
    ) =>
      webhookParts(
        { webhooks, deliveries, forms, submissions, articles, comments, reactions, cursors, clock, logger },
        { sender, urlGuard, ...policy, intervalMs: config.notify.pollMs },
      ),
    [
      WebhookRepositoryToken,
      WebhookDeliveryOutboxToken,
      FormRepositoryToken,
      SubmissionRepositoryToken,
      ArticleRepositoryToken,
      CommentRepositoryToken,
      ReactionRepositoryToken,
      PageCursorsToken,
      WebhookSenderToken,
      WebhookUrlGuardToken,
      WebhookDeliveryPolicyToken,
      ServerTokens.Config,
      ServerTokens.Clock,
      ServerTokens.Logger,
    ],
  );
  bind(WebhookEventRecorderToken).toResolvedValue((parts: WebhookParts) => parts.events, [WebhookPartsToken]);
  bind(CreateWebhook).toResolvedValue((parts: WebhookParts) => parts.create, [WebhookPartsToken]);
  bind(UpdateWebhook).toResolvedValue((parts: WebhookParts) => parts.update, [WebhookPartsToken]);
  bind(GetWebhook).toResolvedValue((parts: WebhookParts) => parts.get, [WebhookPartsToken]);
  bind(ListWebhooks).toResolvedValue((parts: WebhookParts) => parts.list, [WebhookPartsToken]);
  bind(DeleteWebhook).toResolvedValue((parts: WebhookParts) => parts.remove, [WebhookPartsToken]);
  bind(ListWebhookDeliveries).toResolvedValue((parts: WebhookParts) => parts.deliveries, [WebhookPartsToken]);
  bind(DispatchWebhooks).toResolvedValue((parts: WebhookParts) => parts.dispatch, [WebhookPartsToken]);
  bind(WebhookDispatchLoopToken).toResolvedValue((parts: WebhookParts) => parts.dispatcher, [WebhookPartsToken]);
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateWebhook, list: ListWebhooks, get: GetWebhook, update: UpdateWebhook, remove: DeleteWebhook, deliveries: ListWebhookDeliveries) =>
      webhookRoutes({ create, list, get, update, remove, deliveries }),
    [CreateWebhook, ListWebhooks, GetWebhook, UpdateWebhook, DeleteWebhook, ListWebhookDeliveries],
  );
});
