/**
 * Webhooks (CONTRACT §7): the event recorder the writing use cases share, the management use
 * cases and routes, and the delivery dispatcher on the notification dispatch loop. The SSRF guard
 * and the HTTP sender come from adapter-notify unless a test or embedder binds its own.
 */
import { RouteModuleToken, webhookRoutes } from '@cms/adapter-koa';
import { AddressWebhookUrlGuard, HttpWebhookSender } from '@cms/adapter-notify';
import {
  ArticleRepositoryToken,
  CommentRepositoryToken,
  CreateWebhook,
  DeleteWebhook,
  DispatchLoop,
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
  WebhookEvents,
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
  type WebhookRepository,
  type WebhookSender,
  type WebhookUrlGuard,
} from '@cms/core';
import { EventWitnessReader } from '@cms/core/internal';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const WebhookDispatchLoopToken = Symbol.for('cms/server/WebhookDispatchLoop');

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
    }),
    [ServerTokens.Config],
  );
  bind(WebhookEventRecorderToken).toResolvedValue(
    (webhooks: WebhookRepository, outbox: WebhookDeliveryOutbox, clock: Clock, logger: Logger) => new WebhookEvents(webhooks, outbox, clock, logger),
    [WebhookRepositoryToken, WebhookDeliveryOutboxToken, ServerTokens.Clock, ServerTokens.Logger],
  );
  bind(CreateWebhook).toResolvedValue(
    (webhooks: WebhookRepository, guard: WebhookUrlGuard, clock: Clock) => new CreateWebhook(webhooks, guard, clock),
    [WebhookRepositoryToken, WebhookUrlGuardToken, ServerTokens.Clock],
  );
  bind(UpdateWebhook).toResolvedValue(
    (webhooks: WebhookRepository, guard: WebhookUrlGuard, clock: Clock) => new UpdateWebhook(webhooks, guard, clock),
    [WebhookRepositoryToken, WebhookUrlGuardToken, ServerTokens.Clock],
  );
  bind(GetWebhook).toResolvedValue((webhooks: WebhookRepository) => new GetWebhook(webhooks), [WebhookRepositoryToken]);
  bind(ListWebhooks).toResolvedValue((webhooks: WebhookRepository, cursors: PageCursors) => new ListWebhooks(webhooks, cursors), [WebhookRepositoryToken, PageCursorsToken]);
  bind(DeleteWebhook).toResolvedValue(
    (webhooks: WebhookRepository, outbox: WebhookDeliveryOutbox) => new DeleteWebhook(webhooks, outbox),
    [WebhookRepositoryToken, WebhookDeliveryOutboxToken],
  );
  bind(ListWebhookDeliveries).toResolvedValue(
    (webhooks: WebhookRepository, outbox: WebhookDeliveryOutbox) => new ListWebhookDeliveries(webhooks, outbox),
    [WebhookRepositoryToken, WebhookDeliveryOutboxToken],
  );
  bind(RouteModuleToken).toResolvedValue(
    (create: CreateWebhook, list: ListWebhooks, get: GetWebhook, update: UpdateWebhook, remove: DeleteWebhook, deliveries: ListWebhookDeliveries) =>
      webhookRoutes({ create, list, get, update, remove, deliveries }),
    [CreateWebhook, ListWebhooks, GetWebhook, UpdateWebhook, DeleteWebhook, ListWebhookDeliveries],
  );
  bind(DispatchWebhooks).toResolvedValue(
    (
      webhooks: WebhookRepository,
      outbox: WebhookDeliveryOutbox,
      forms: FormRepository,
      submissions: SubmissionRepository,
      articles: ArticleRepository,
      comments: CommentRepository,
      reactions: ReactionRepository,
      sender: WebhookSender,
      policy: WebhookDeliveryPolicy,
      clock: Clock,
      logger: Logger,
    ) =>
      new DispatchWebhooks(webhooks, outbox, new EventWitnessReader({ forms, submissions, articles, comments, reactions }), sender, policy, clock, logger),
    [
      WebhookRepositoryToken,
      WebhookDeliveryOutboxToken,
      FormRepositoryToken,
      SubmissionRepositoryToken,
      ArticleRepositoryToken,
      CommentRepositoryToken,
      ReactionRepositoryToken,
      WebhookSenderToken,
      WebhookDeliveryPolicyToken,
      ServerTokens.Clock,
      ServerTokens.Logger,
    ],
  );
  bind(WebhookDispatchLoopToken).toResolvedValue(
    (dispatch: DispatchWebhooks, config: ServiceConfig, logger: Logger) =>
      new DispatchLoop(dispatch, { intervalMs: config.notify.pollMs, batchSize: config.webhooks.batchSize, label: 'webhook' }, logger),
    [DispatchWebhooks, ServerTokens.Config, ServerTokens.Logger],
  );
});
