/**
 * The notification outbox: a durable queue of jobs in the same store as the submissions. The
 * forms module enqueues one job per enabled channel and audience after a submission is stored;
 * a dispatcher claims due jobs atomically (so several instances never send one job twice),
 * sends them, and retries with back-off. Nothing here ever blocks an HTTP response.
 */
import type { ClaimShare } from './dispatch-shares.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';

export type NotificationChannel = 'email' | 'push';
export type NotificationAudience = 'admin' | 'submitter';
export type NotificationStatus = 'pending' | 'sent' | 'failed' | 'skipped';

/** What happened, with enough to write a useful e-mail or push payload. */
export interface NotificationMessage {
  readonly formId: string;
  readonly formSlug: string;
  readonly formTitle: Readonly<Record<string, string>>;
  readonly submissionId: string;
  readonly values: Readonly<Record<string, unknown>>;
  readonly submittedBy: string | null;
  readonly submittedAt: Date;
}

export interface NewNotificationJob {
  readonly tenantId: string;
  readonly channel: NotificationChannel;
  readonly audience: NotificationAudience;
  /**
   * E-mail recipients. Admin e-mail with none given goes to the tenant's admin addresses (the
   * dispatcher resolves them); submitter e-mail carries the address taken from the submission.
   */
  readonly recipients: readonly string[];
  readonly message: NotificationMessage;
  /**
   * The trace of the submit that gave rise to the job: each push attempt is a new span of it
   * (CONTRACT §8). Absent on a job recovered after its submit died (decision 0798) and on jobs
   * stored before it was kept; their attempts start a trace of their own.
   */
  readonly trace?: TraceContext | undefined;
}

export interface NotificationJob extends NewNotificationJob {
  readonly id: string;
  readonly status: NotificationStatus;
  /** Attempts started so far (a claim counts as one). */
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  /** While a dispatcher holds the job; another may claim it only after this passes. */
  readonly claimedUntil: Date | null;
  readonly lastError: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface NotificationOutbox {
  /** Stores the jobs as pending, due now. */
  enqueue(jobs: readonly NewNotificationJob[], now: Date): Promise<void>;
  /**
   * Atomically claims up to `limit` pending jobs that are due and not claimed (or whose claim
   * expired), marking each claimed until `now + leaseMs`. No job is returned to two callers
   * within one lease. Claims take turns between the channels, each channel's oldest due first,
   * starting after the channel this instance's last claim took from; with `share`, a channel is
   * passed over once it has `perReceiver` jobs in flight, counting those of `share.inFlight` (by
   * channel; decision 0817).
   */
  claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<NotificationJob[]>;
  /**
   * Records the outcome of one attempt and releases the claim, in one write: a retry's
   * `recipients` replace the job's, a sent job's `error` becomes its `lastError`.
   */
  complete(id: string, outcome: NotificationOutcome, now: Date): Promise<void>;
  /**
   * Deletes the tenant's jobs about the form's submissions, or about one submission when
   * `submissionId` is given, whatever their status: every job's message carries the
   * submission's values, which §6.4's deletes must not keep (a sent job's too). A job a
   * dispatcher holds right now may still be sent once; its outcome then finds no job and is not
   * recorded (`complete` of a deleted job does nothing). Returns how many.
   */
  dropJobs(tenantId: string, formId: string, submissionId?: string): Promise<number>;
  /** The tenant's jobs about one submission of the form, whatever their status, in no particular order. */
  listBySubmission(tenantId: string, formId: string, submissionId: string): Promise<NotificationJob[]>;
  /**
   * Deletes the finished jobs (sent, failed, skipped) of all tenants whose last attempt was due
   * before `before`; pending ones stay whatever their age. Returns how many.
   */
  pruneFinished(before: Date): Promise<number>;
  /** Jobs of a tenant, newest first (operations and tests). */
  listByTenant(tenantId: string): Promise<NotificationJob[]>;
  /** How many jobs of all tenants are in each status (the `/metrics` gauge); every status present, 0 when none. */
  countByStatus(): Promise<Record<NotificationStatus, number>>;
}

export const NOTIFICATION_STATUSES: readonly NotificationStatus[] = ['pending', 'sent', 'failed', 'skipped'];

export type NotificationOutcome =
  /** `error`: recipients the mail server refused for good while it took the message for the others. */
  | { readonly status: 'sent'; readonly error?: string }
  | { readonly status: 'skipped'; readonly reason: string }
  | { readonly status: 'failed'; readonly error: string }
  | {
      readonly status: 'retry';
      readonly error: string;
      readonly nextAttemptAt: Date;
      /**
       * The recipients still to write to, when the last attempt reached the others: the job's
       * recipients become these, so a later attempt does not mail anyone twice (decision 0820).
       */
      readonly recipients?: readonly string[];
    };

export const NotificationOutboxToken: PortToken<NotificationOutbox> = portToken('NotificationOutbox');
