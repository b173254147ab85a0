/**
 * Notification delivery: the dispatcher over the outbox, its senders, its recovery of the jobs
 * of submits that died (decision 0798) and its background loop.
 * A sender bound to EmailSenderToken / PushSenderToken (an embedder's, or a test's) wins;
 * otherwise SMTP_URL and PUSH_WEBHOOK_URL decide, and an unset one leaves its channel unconfigured.
 */
import { SmtpEmailSender, WebhookPushSender } from '@cms/adapter-notify';
import {
  DispatchLoop,
  DispatchNotifications,
  EmailSenderToken,
  FormRepositoryToken,
  NotificationDeliveryPolicyToken,
  NotificationOutboxToken,
  PushSenderToken,
  RecoverSubmissionNotifications,
  SubmissionRepositoryToken,
  TenantRepositoryToken,
  type Clock,
  type EmailSender,
  type FormRepository,
  type Logger,
  type NotificationDeliveryPolicy,
  type NotificationOutbox,
  type PushSender,
  type SubmissionRepository,
  type TenantRepository,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const notificationsModule = new ContainerModule(({ bind }) => {
  bind(NotificationDeliveryPolicyToken).toResolvedValue(
    ({ notify }: ServiceConfig): NotificationDeliveryPolicy => ({
      maxAttempts: notify.maxAttempts,
      retryBaseMs: notify.retryBaseMs,
      retryMaxMs: notify.retryMaxMs,
      leaseMs: notify.leaseMs,
      batchSize: notify.batchSize,
      keepFinishedMs: notify.keepFinishedMs,
    }),
    [ServerTokens.Config],
  );
  bind(RecoverSubmissionNotifications).toResolvedValue(
    (forms: FormRepository, submissions: SubmissionRepository, outbox: NotificationOutbox, policy: NotificationDeliveryPolicy, clock: Clock, logger: Logger) =>
      new RecoverSubmissionNotifications(forms, submissions, outbox, policy, clock, logger),
    [FormRepositoryToken, SubmissionRepositoryToken, NotificationOutboxToken, NotificationDeliveryPolicyToken, ServerTokens.Clock, ServerTokens.Logger],
  );
  bind(DispatchNotifications).toResolvedValue(
    (
      config: ServiceConfig,
      outbox: NotificationOutbox,
      tenants: TenantRepository,
      policy: NotificationDeliveryPolicy,
      clock: Clock,
      logger: Logger,
      recovery: RecoverSubmissionNotifications,
      email: EmailSender | undefined,
      push: PushSender | undefined,
    ) =>
      new DispatchNotifications(
        outbox,
        tenants,
        { email: email ?? emailSenderFrom(config), push: push ?? pushSenderFrom(config) },
        policy,
        clock,
        logger,
        recovery,
      ),
    [
      ServerTokens.Config,
      NotificationOutboxToken,
      TenantRepositoryToken,
      NotificationDeliveryPolicyToken,
      ServerTokens.Clock,
      ServerTokens.Logger,
      RecoverSubmissionNotifications,
      { serviceIdentifier: EmailSenderToken, optional: true },
      { serviceIdentifier: PushSenderToken, optional: true },
    ],
  );
  bind(DispatchLoop).toResolvedValue(
    (dispatch: DispatchNotifications, config: ServiceConfig, logger: Logger) =>
      new DispatchLoop(dispatch, { intervalMs: config.notify.pollMs, batchSize: config.notify.batchSize }, logger),
    [DispatchNotifications, ServerTokens.Config, ServerTokens.Logger],
  );
});

function emailSenderFrom({ notify }: ServiceConfig): EmailSender | undefined {
  return notify.email && new SmtpEmailSender({ url: notify.email.smtpUrl, from: notify.email.from, timeoutMs: notify.sendTimeoutMs });
}

function pushSenderFrom({ notify }: ServiceConfig): PushSender | undefined {
  return notify.push && new WebhookPushSender({ url: notify.push.webhookUrl, timeoutMs: notify.sendTimeoutMs });
}
