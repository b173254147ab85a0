/**
 * In-memory notification outbox. Claims read and mark jobs without awaiting in between, so two
 * dispatchers in one process can never claim the same job within a lease; they take turns between
 * the channels (decision 0817). Each submission's jobs are indexed, as MongoDB's
 * `tenant_form_submission` index serves the drops, so deleting a submission or a form (and recovering
 * a submission's jobs) reads its own jobs, not every tenant's outbox.
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
import { DueQueue, pushDue, type DueVerdict } from './due-queue.js';
import { addTo, removeFrom } from './id-sets.js';
import { groupInto, isUnclaimed, takeTurns } from './take-turns.js';
import { tenantKey } from './tenant-key.js';

type MutableJob = { -readonly [K in keyof NotificationJob]: NotificationJob[K] };

export class MemoryNotificationOutbox implements NotificationOutbox {
  readonly #jobs = new Map<string, MutableJob>();
  /** (tenant, form) → submission id → the ids of that submission's jobs. */
  readonly #bySubmission = new Map<string, Map<string, Set<string>>>();
  /**
   * Each channel's pending jobs in the order they fall due: a claim reads the due head of each
   * channel, not every job kept (finished ones stay a day; decision 0825 did the same for webhooks).
   */
  readonly #dueOrder = new Map<string, DueQueue>();
  /**
   * Finished jobs in the order of their last due time, which their retention runs from: the
   * prune reads the jobs it deletes, not every job kept (a day of them, by default).
   */
  readonly #finished = new DueQueue();
  /** Jobs by status, kept as they change: `GET /metrics` asks at every scrape, and needs no key. */
  readonly #counts: Record<NotificationStatus, number> = { pending: 0, sent: 0, failed: 0, skipped: 0 };
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
        nextAttemptAt: new Date(now.getTime()),
        claimedUntil: null,
        lastError: null,
        createdAt: now,
        updatedAt: now,
      });
      this.#counts.pending += 1;
      pushDue(this.#dueOrder, job.channel, id, now);
      const formKey = tenantKey(job.tenantId, job.message.formId);
      let ofForm = this.#bySubmission.get(formKey);
      if (!ofForm) this.#bySubmission.set(formKey, (ofForm = new Map()));
      addTo(ofForm, job.message.submissionId, id);
    }
  }

  async claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<NotificationJob[]> {
    const dueByChannel = new Map<string, MutableJob[]>();
    // An entry whose job has gone, finished or been given another time since is stale; a leased job waits.
    const verdict = (id: string, at: number): DueVerdict => {
      const job = this.#jobs.get(id);
      if (job?.status !== 'pending' || job.nextAttemptAt.getTime() !== at) return 'stale';
      return isUnclaimed(job, now) ? 'take' : 'keep';
    };
    for (const [channel, queue] of this.#dueOrder) {
      // No more than the channel could be given: the batch, and its share's room.
      const room = share ? share.perReceiver - (share.inFlight.get(channel) ?? 0) : limit;
      if (room <= 0) continue;
      for (const id of queue.due(now, Math.min(limit, room), verdict)) groupInto(dueByChannel, channel, this.#jobs.get(id)!);
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
    const ofForm = this.#bySubmission.get(tenantKey(tenantId, formId));
    const ids = submissionId === undefined ? [...(ofForm?.values() ?? [])].flatMap((set) => [...set]) : [...(ofForm?.get(submissionId) ?? [])];
    for (const id of ids) this.#remove(id);
    return ids.length;
  }

  async listBySubmission(tenantId: string, formId: string, submissionId: string): Promise<NotificationJob[]> {
    const ids = this.#bySubmission.get(tenantKey(tenantId, formId))?.get(submissionId) ?? [];
    return [...ids].map((id) => structuredClone(this.#jobs.get(id)!));
  }

  async pruneFinished(before: Date): Promise<number> {
    // An entry whose job is gone (dropped with its submission) or due at another time is stale.
    const ids = this.#finished.takeBefore(before, (id, at) => {
      const job = this.#jobs.get(id);
      return job !== undefined && job.status !== 'pending' && job.nextAttemptAt.getTime() === at;
    });
    for (const id of ids) this.#remove(id);
    return ids.length;
  }

  async complete(id: string, outcome: NotificationOutcome, now: Date): Promise<void> {
    const job = this.#jobs.get(id);
    if (!job) return;
    job.claimedUntil = null;
    job.updatedAt = now;
    if (outcome.status === 'retry') {
      job.lastError = outcome.error;
      // A copy: the due order holds this time, which a caller's later change must not move.
      job.nextAttemptAt = new Date(outcome.nextAttemptAt.getTime());
      pushDue(this.#dueOrder, job.channel, id, job.nextAttemptAt);
      if (outcome.recipients) job.recipients = [...outcome.recipients];
      // A retry's outcome given to a finished job (a lease that ran out) moves its retention too.
      if (job.status !== 'pending') this.#finished.push(id, job.nextAttemptAt);
      return;
    }
    this.#counts[job.status] -= 1;
    this.#counts[outcome.status] += 1;
    job.status = outcome.status;
    if (outcome.status === 'sent' && outcome.error !== undefined) job.lastError = outcome.error;
    if (outcome.status === 'failed') job.lastError = outcome.error;
    if (outcome.status === 'skipped') job.lastError = outcome.reason;
    this.#finished.push(id, job.nextAttemptAt);
  }

  async countByStatus(): Promise<Record<NotificationStatus, number>> {
    return { ...this.#counts };
  }

  /** Deletes the job and its entry in the index of submissions (its due entry goes stale). */
  #remove(id: string): void {
    const job = this.#jobs.get(id);
    if (!job) return;
    this.#jobs.delete(id);
    this.#counts[job.status] -= 1;
    const formKey = tenantKey(job.tenantId, job.message.formId);
    const ofForm = this.#bySubmission.get(formKey);
    if (ofForm && removeFrom(ofForm, job.message.submissionId, id) && ofForm.size === 0) this.#bySubmission.delete(formKey);
  }

  async listByTenant(tenantId: string): Promise<NotificationJob[]> {
    return [...this.#jobs.values()]
      .filter((job) => job.tenantId === tenantId)
      .reverse()
      .map((job) => structuredClone(job));
  }
}
