/**
 * The notification jobs of submits whose process died between storing the submission and
 * storing its jobs (decision 0798). A submit whose form sends notifications stores the
 * submission with `notificationsRecoverAt` and takes it off once the jobs are in the outbox; a
 * marker still there when that time has come means the jobs may be missing. This claims such
 * submissions (one dispatcher at a time per submission), enqueues the jobs the form asks for
 * that the outbox does not hold for the submission, and takes the marker off. A form deleted
 * since (its cascade takes the submission too) or whose notifications are off now gets none.
 */
import { errorText } from '../shared/error-text.js';
import type { NotificationOutbox } from '../notifications/notification.ports.js';
import type { Clock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import type { Submission } from './submission.js';
import { storeSubmissionJobs, submissionNotificationJobs } from './submission-notification-jobs.js';

export interface RecoveryPolicy {
  /** How long a claim holds a submission: another dispatcher may take it over after this. */
  readonly leaseMs: number;
  /** Submissions claimed per round; a pass goes on until a round finds fewer. */
  readonly batchSize: number;
}

export class RecoverSubmissionNotifications {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly outbox: NotificationOutbox,
    private readonly policy: RecoveryPolicy,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /**
   * One pass over every submission whose marker had come due when it started; returns how many
   * jobs it enqueued. Every round claims as of that start, so a submission claimed (and leased
   * past it) is not claimed again in the same pass, however long the pass takes.
   */
  async execute(): Promise<number> {
    const now = this.clock.now();
    let enqueued = 0;
    for (;;) {
      const claimed = await this.submissions.claimUnnotified(now, this.policy.leaseMs, this.policy.batchSize);
      for (const submission of claimed) enqueued += await this.#recover(submission);
      if (claimed.length < this.policy.batchSize) return enqueued;
    }
  }

  /** A failure leaves the marker for the next claim after the lease; the others go on. */
  async #recover(submission: Submission): Promise<number> {
    const { tenantId, formId, id } = submission;
    try {
      const form = await this.forms.findById(tenantId, formId);
      const wanted = form ? submissionNotificationJobs(form, submission) : [];
      const stored = wanted.length > 0 ? await this.outbox.listBySubmission(tenantId, formId, id) : [];
      const missing = wanted.filter((job) => !stored.some((held) => held.channel === job.channel && held.audience === job.audience));
      await storeSubmissionJobs({ outbox: this.outbox, submissions: this.submissions }, submission, missing, this.clock.now());
      if (missing.length > 0) this.logger.warn('notification jobs recovered', { tenantId, formId, submissionId: id, jobs: missing.length });
      return missing.length;
    } catch (error) {
      this.logger.error('notification recovery failed', { tenantId, formId, submissionId: id, error: errorText(error) });
      return 0;
    }
  }
}
