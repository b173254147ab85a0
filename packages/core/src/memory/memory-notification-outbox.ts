/**
 * In-memory notification outbox. Claims read and mark jobs without awaiting in between, so two
 * dispatchers in one process can never claim the same job within a lease; they take turns between
 * the channels (decision 0817).
 */
import type { ClaimShare } from '../notifications/dispatch-shares.js';
import { newId } from '../shared/ids.js';
import type {
  NewNotificationJob,
  NotificationJob,
  NotificationOutbox,
  NotificationOutcome,
  NotificationStatus,
} from '../notifications/notification.ports.js';
import { groupInto, isUnclaimed, takeTurns } from './take-turns.js';

type MutableJob = { -readonly [K in keyof NotificationJob]: NotificationJob[K] };

export class MemoryNotificationOutbox implements NotificationOutbox {
  readonly #jobs = new Map<string, MutableJob>();
  /** The channel the last claim took a job from: the next claim starts after it (decision 0817). */
  #turn: string | null = null;

  async enqueue(jobs: readonly NewNotificationJob[], now: Date): Promise<void> {
    for (const job of jobs) {
      const id = newId(now);
      this.#jobs.set(id, {
        ...structuredClone(job),
        id,
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        claimedUntil: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
    }
  }

  async claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<NotificationJob[]> {
    const dueByChannel = new Map<string, MutableJob[]>();
    for (const job of this.#jobs.values()) {
      if (job.status === 'pending' && job.nextAttemptAt <= now && isUnclaimed(job, now)) groupInto(dueByChannel, job.channel, job);
    }
    const { taken, last } = takeTurns(dueByChannel, limit, this.#turn, share);
    this.#turn = last;
    return taken.map((job) => {
      job.claimedUntil = new Date(now.getTime() + leaseMs);
      job.attempts += 1;
      job.updatedAt = now;
      return structuredClone(job);
    });
  }

  async dropJobs(tenantId: string, formId: string, submissionId?: string): Promise<number> {
    let dropped = 0;
    for (const [id, job] of this.#jobs) {
      if (job.tenantId !== tenantId || job.message.formId !== formId) continue;
      if (submissionId !== undefined && job.message.submissionId !== submissionId) continue;
      this.#jobs.delete(id);
      dropped += 1;
    }
    return dropped;
  }

  async listBySubmission(tenantId: string, formId: string, submissionId: string): Promise<NotificationJob[]> {
    const jobs: NotificationJob[] = [];
    for (const job of this.#jobs.values()) {
      if (job.tenantId === tenantId && job.message.formId === formId && job.message.submissionId === submissionId) jobs.push(structuredClone(job));
    }
    return jobs;
  }

  async pruneFinished(before: Date): Promise<number> {
    let pruned = 0;
    for (const [id, job] of this.#jobs) {
      if (job.status === 'pending' || job.nextAttemptAt >= before) continue;
      this.#jobs.delete(id);
      pruned += 1;
    }
    return pruned;
  }

  async complete(id: string, outcome: NotificationOutcome, now: Date): Promise<void> {
    const job = this.#jobs.get(id);
    if (!job) return;
    job.claimedUntil = null;
    job.updatedAt = now;
    if (outcome.status === 'retry') {
      job.lastError = outcome.error;
      job.nextAttemptAt = outcome.nextAttemptAt;
      if (outcome.recipients) job.recipients = [...outcome.recipients];
      return;
    }
    job.status = outcome.status;
    if (outcome.status === 'sent' && outcome.error !== undefined) job.lastError = outcome.error;
    if (outcome.status === 'failed') job.lastError = outcome.error;
    if (outcome.status === 'skipped') job.lastError = outcome.reason;
  }

  async countByStatus(): Promise<Record<NotificationStatus, number>> {
    const counts: Record<NotificationStatus, number> = { pending: 0, sent: 0, failed: 0, skipped: 0 };
    for (const job of this.#jobs.values()) counts[job.status] += 1;
    return counts;
  }

  async listByTenant(tenantId: string): Promise<NotificationJob[]> {
    return [...this.#jobs.values()]
      .filter((job) => job.tenantId === tenantId)
      .reverse()
      .map((job) => structuredClone(job));
  }
}
