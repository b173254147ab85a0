/**
 * Sends what is due in the notification outbox, once: claims a batch atomically, sends each job on
 * its channel, and records the outcome — sent; skipped (channel not configured, nobody to write
 * to); retry after an exponential back-off; or failed once the attempts are used up. Once a
 * minute a pass also enqueues the jobs of submits whose process died before it did (a
 * `NotificationRecovery`, decision 0798) and then deletes the finished jobs older than the policy
 * keeps them.
 */
import { isMailAddress } from '../shared/input-rules.js';
import { NOTIFICATION_RECOVERY_AFTER_MS } from '../forms/submission-notification-jobs.js';
import { errorText } from '../shared/error-text.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { childSpanOf } from '../shared/trace-context.js';
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import { DispatchShares } from './dispatch-shares.js';
import type { EmailSender, NotificationDeliveryPolicy, PushSender, RefusedRecipient } from './notification-delivery.ports.js';
import type { NotificationJob, NotificationOutbox, NotificationOutcome } from './notification.ports.js';
import { renderNotificationEmail, renderNotificationPush } from './render-notification.js';

/** The configured channels; an absent sender means that channel is not configured. */
export interface NotificationSenders {
  readonly email?: EmailSender | undefined;
  readonly push?: PushSender | undefined;
}

/** What one dispatch did, by outcome. */
export interface DispatchReport {
  readonly claimed: number;
  readonly sent: number;
  readonly retried: number;
  readonly failed: number;
  readonly skipped: number;
}

/** Puts into the outbox the jobs a dead process did not (the forms module's `RecoverSubmissionNotifications`). */
export interface NotificationRecovery {
  /** Returns how many jobs it enqueued; never throws for one submission (it logs and goes on). */
  execute(): Promise<number>;
}

const ERROR_MAX = 500;
/**
 * How often a pass recovers the jobs of dead submits and deletes the finished jobs past
 * `keepFinishedMs` (a pass runs every `NOTIFY_POLL_MS`); the first pass of a process does both.
 */
export const PRUNE_EVERY_MS = 60_000;

/**
 * How long a finished job is kept: `keepFinishedMs`, but never less than a recovery may still
 * need it. A submission's marker comes due `NOTIFICATION_RECOVERY_AFTER_MS` after it was stored,
 * never before its jobs, and a recovery that was claimed elsewhere or failed is taken again one
 * lease later. A job the recovery did not find would be enqueued and sent again, so a job due
 * within that window stays (with `NOTIFY_KEEP_HOURS=0` a submit killed before its confirm sent
 * its jobs twice; decision 0795).
 */
export function finishedJobsKeptMs(policy: Pick<NotificationDeliveryPolicy, 'keepFinishedMs' | 'leaseMs'>): number {
  return Math.max(policy.keepFinishedMs, NOTIFICATION_RECOVERY_AFTER_MS + policy.leaseMs);
}

/** Wait before the attempt after attempt `attempts` (1-based): base · 2^(attempts-1), capped. */
export function retryDelayMs(attempts: number, policy: Pick<NotificationDeliveryPolicy, 'retryBaseMs' | 'retryMaxMs'>): number {
  return Math.min(policy.retryBaseMs * 2 ** Math.max(0, attempts - 1), policy.retryMaxMs);
}

/**
 * Most jobs of one channel in flight at once: every place but one, so a push server or an SMTP
 * server that hangs always leaves the other channel a place (decision 0817).
 */
export function inFlightPerChannel(batchSize: number): number {
  return Math.max(1, batchSize - 1);
}

export class DispatchNotifications {
  /** When this dispatcher last recovered jobs and deleted finished ones (ms), if it has. */
  #housekeptAt: number | undefined;
  /** The sends in flight, by channel: each channel's share of the places. */
  readonly #shares: DispatchShares;

  constructor(
    private readonly outbox: NotificationOutbox,
    private readonly tenants: TenantRepository,
    private readonly senders: NotificationSenders,
    private readonly policy: NotificationDeliveryPolicy,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly recovery?: NotificationRecovery,
  ) {
    this.#shares = new DispatchShares(inFlightPerChannel(policy.batchSize));
  }

  /**
   * One pass: claims up to a batch of due jobs and settles every one of them; once a minute first
   * recovers the jobs of dead submits, then deletes old finished ones (recovered first, so a
   * job it finds stored is not one the clean-up is about to delete).
   */
  async execute(): Promise<DispatchReport> {
    const outcomes = await Promise.all(await this.claimAndSend(this.policy.batchSize));
    const report = { claimed: outcomes.length, sent: 0, retried: 0, failed: 0, skipped: 0 };
    for (const status of outcomes) {
      if (status === 'retry') report.retried += 1;
      else report[status] += 1;
    }
    return report;
  }

  /**
   * What the dispatch loop runs: the housekeeping `execute` does, then claims up to `limit` due
   * jobs and starts each; resolves once they are claimed, with one promise per job that settles
   * once its outcome is recorded.
   */
  async claimAndSend(limit: number): Promise<Array<Promise<NotificationOutcome['status']>>> {
    await this.#housekeeping();
    const jobs = await this.outbox.claimDue(this.clock.now(), this.policy.leaseMs, limit, this.#shares.share());
    return jobs.map((job) => this.#shares.track(job.channel, this.#settle(job)));
  }

  /**
   * What the loop waits for after a pass that claimed fewer than its places: a send of a channel
   * that holds its whole share settling, when one does; undefined otherwise.
   */
  heldBack(): Promise<void> | undefined {
    return this.#shares.heldBack();
  }

  async #housekeeping(): Promise<void> {
    const now = this.clock.now().getTime();
    // A clock stepped back since the last run (NTP) does not hold housekeeping off until it catches up.
    const since = this.#housekeptAt === undefined ? Infinity : now - this.#housekeptAt;
    if (since >= 0 && since < PRUNE_EVERY_MS) return;
    this.#housekeptAt = now;
    try {
      await this.recovery?.execute();
    } catch (error) {
      // Claims whose lease runs out are taken again at a later pass; sending does not wait for it.
      this.logger.warn('notification jobs could not be recovered', { error: errorText(error, ERROR_MAX) });
    }
    try {
      const keptMs = finishedJobsKeptMs(this.policy);
      const pruned = await this.outbox.pruneFinished(new Date(now - keptMs));
      if (pruned > 0) this.logger.info('finished notification jobs deleted', { count: pruned, keptMs });
    } catch (error) {
      // Tried again in a minute; sending does not wait for it.
      this.logger.warn('finished notification jobs could not be deleted', { error: errorText(error, ERROR_MAX) });
    }
  }

  async #settle(job: NotificationJob): Promise<NotificationOutcome['status']> {
    let outcome: NotificationOutcome;
    try {
      outcome = await this.#attempt(job);
    } catch (error) {
      outcome = this.#afterFailure(job, errorText(error, ERROR_MAX));
    }
    const fields = { jobId: job.id, tenantId: job.tenantId, channel: job.channel, audience: job.audience, attempt: job.attempts };
    try {
      await this.outbox.complete(job.id, outcome, this.clock.now());
    } catch (error) {
      // The claim lapses and the job is tried again: at worst a duplicate, never a loss.
      this.logger.error('notification outcome could not be recorded', { ...fields, outcome: outcome.status, error: errorText(error, ERROR_MAX) });
    }
    if (outcome.status === 'sent') {
      if (outcome.error === undefined) this.logger.info('notification sent', fields);
      else this.logger.warn('notification sent; some recipients refused it', { ...fields, error: outcome.error });
    }
    if (outcome.status === 'skipped') this.logger.info('notification skipped', { ...fields, reason: outcome.reason });
    if (outcome.status === 'retry') {
      this.logger.warn('notification attempt failed; will retry', {
        ...fields,
        error: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt.toISOString(),
        ...(outcome.recipients ? { remainingRecipients: outcome.recipients.length } : {}),
      });
    }
    if (outcome.status === 'failed') this.logger.error('notification failed; giving up', { ...fields, error: outcome.error });
    return outcome.status;
  }

  async #attempt(job: NotificationJob): Promise<NotificationOutcome> {
    if (job.attempts > this.policy.maxAttempts) {
      // Earlier claims lapsed without an outcome (a dispatcher died mid-send): stop here.
      return { status: 'failed', error: `gave up after ${job.attempts - 1} attempts without an outcome` };
    }
    if (job.channel === 'email') {
      if (!this.senders.email) return { status: 'skipped', reason: 'email channel is not configured' };
      const to = await this.#emailRecipients(job);
      if (to.length === 0) {
        return {
          status: 'skipped',
          reason:
            job.audience === 'admin'
              ? 'no recipients: the form names none and the tenant has no admin e-mail addresses'
              : 'no recipients: the submission has no e-mail address',
        };
      }
      const result = await this.senders.email.send(renderNotificationEmail(job, to));
      return this.#afterEmail(job, to.length, result?.refused ?? []);
    }
    if (job.channel === 'push') {
      if (!this.senders.push) return { status: 'skipped', reason: 'push channel is not configured' };
      // A new span of the submit's trace per attempt, as a webhook delivery's (or a new trace).
      await this.senders.push.send(renderNotificationPush(job), childSpanOf(job.trace));
      return { status: 'sent' };
    }
    return { status: 'failed', error: `unknown channel "${String(job.channel)}"` };
  }

  async #emailRecipients(job: NotificationJob): Promise<string[]> {
    let recipients = job.recipients;
    if (recipients.length === 0 && job.audience === 'admin') {
      recipients = (await this.tenants.findById(job.tenantId))?.adminEmails ?? [];
    }
    // Held to the rule at the send too (decision 0827): addresses stored before the rule, by a
    // form, `cms-admin` or CMS_ADMIN_EMAILS, may be lists or carry display names.
    return [...new Set(recipients.map((address) => address.trim()).filter(isMailAddress))];
  }

  /**
   * A message the server took for some recipients and refused for others (decision 0820): while
   * attempts remain, the job goes on with only those it refused for now (a 4xx), so nobody gets
   * it twice; those it refused for good are named on the job, which is sent.
   */
  #afterEmail(job: NotificationJob, recipients: number, refused: readonly RefusedRecipient[]): NotificationOutcome {
    if (refused.length === 0) return { status: 'sent' };
    // Its replies, not the addresses: recipients stay out of the logs (a reply may still quote one).
    const replies = [...new Set(refused.map((r) => r.reply))].join('; ');
    const error = errorText(`the mail server refused ${refused.length} of ${recipients} recipients: ${replies}`, ERROR_MAX);
    const later = refused.filter((r) => r.transient).map((r) => r.address);
    if (later.length > 0 && job.attempts < this.policy.maxAttempts) {
      return { status: 'retry', error, nextAttemptAt: this.#nextAttemptAt(job), recipients: later };
    }
    return { status: 'sent', error };
  }

  #nextAttemptAt(job: NotificationJob): Date {
    return new Date(this.clock.now().getTime() + retryDelayMs(job.attempts, this.policy));
  }

  #afterFailure(job: NotificationJob, error: string): NotificationOutcome {
    if (job.attempts >= this.policy.maxAttempts) return { status: 'failed', error };
    return { status: 'retry', error, nextAttemptAt: this.#nextAttemptAt(job) };
  }
}

