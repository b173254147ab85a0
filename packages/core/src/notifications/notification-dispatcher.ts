/**
 * The notification dispatcher an embedding service starts and stops: `DispatchNotifications` over
 * its outbox on a `DispatchLoop`, with the recovery of the jobs of submits that died
 * (decision 0798). `createCore` builds one from its `notifications` option; the HTTP service
 * builds the same from its `NOTIFY_*` settings.
 */
import type { FormRepository, SubmissionRepository } from '../forms/forms.ports.js';
import { RecoverSubmissionNotifications } from '../forms/recover-submission-notifications.use-case.js';
import type { Clock } from '../shared/clock.js';
import { definedOnly } from '../shared/defined-only.js';
import type { Logger } from '../shared/logger.js';
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import { DispatchLoop } from './dispatch-loop.js';
import { DispatchNotifications, type NotificationSenders } from './dispatch-notifications.use-case.js';
import type { NotificationDeliveryPolicy } from './notification-delivery.ports.js';
import type { NotificationOutbox } from './notification.ports.js';

/** The service's defaults (`NOTIFY_*` unset): a pass a second, 10 jobs in flight at most, 5 attempts, finished jobs kept a day. */
export const DEFAULT_NOTIFICATION_DISPATCH = {
  intervalMs: 1000,
  batchSize: 10,
  maxAttempts: 5,
  retryBaseMs: 30_000,
  retryMaxMs: 3_600_000,
  leaseMs: 60_000,
  keepFinishedMs: 86_400_000,
} as const satisfies NotificationDeliveryPolicy & { intervalMs: number };

export interface NotificationDispatchOptions extends NotificationSenders, Partial<NotificationDeliveryPolicy> {
  /** Wait between passes when nothing more is due (default 1000 ms). */
  readonly intervalMs?: number;
}

export interface NotificationDispatcher {
  /** One pass, for a caller that runs its own schedule (a cron job, a test). */
  readonly dispatch: DispatchNotifications;
  /** The background loop: `start()` once the service is up, `await stop()` before closing the store. */
  readonly dispatcher: DispatchLoop;
}

export function notificationDispatcher(
  ports: {
    readonly outbox: NotificationOutbox;
    readonly tenants: TenantRepository;
    readonly forms: FormRepository;
    readonly submissions: SubmissionRepository;
    readonly clock: Clock;
    readonly logger: Logger;
  },
  options: NotificationDispatchOptions = {},
): NotificationDispatcher {
  const { email, push, intervalMs, ...overrides } = options;
  const policy: NotificationDeliveryPolicy = { ...DEFAULT_NOTIFICATION_DISPATCH, ...definedOnly(overrides) };
  const recovery = new RecoverSubmissionNotifications(ports.forms, ports.submissions, ports.outbox, policy, ports.clock, ports.logger);
  const dispatch = new DispatchNotifications(ports.outbox, ports.tenants, { email, push }, policy, ports.clock, ports.logger, recovery);
  const loopOptions = { intervalMs: intervalMs ?? DEFAULT_NOTIFICATION_DISPATCH.intervalMs, batchSize: policy.batchSize };
  return { dispatch, dispatcher: new DispatchLoop(dispatch, loopOptions, ports.logger) };
}
