/**
 * The notification outbox on MongoDB. A claim is one `findOneAndUpdate` per job (filter: pending,
 * due, not under a live lease; update: set the lease, count the attempt), repeated up to `limit`,
 * so dispatchers on several instances never claim one job within a lease; claims take turns
 * between the channels. Index `status_channel_due` serves the claim, `status_due` the clean-up
 * and the counts, `tenant_created_id` the per-tenant listing.
 */
import type {
  ClaimShare,
  NewNotificationJob,
  NotificationAudience,
  NotificationChannel,
  NotificationJob,
  NotificationMessage,
  NotificationOutbox,
  NotificationOutcome,
  NotificationStatus,
  TraceContext,
} from '@cms/core';
import { ObjectId } from 'mongodb';
import { TurnClaims } from '../storage/turn-claims.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

interface MessageDocument {
  formId: ObjectId;
  formSlug: string;
  formTitle: Record<string, string>;
  submissionId: ObjectId;
  values: Record<string, unknown>;
  submittedBy: string | null;
  submittedAt: Date;
}

interface NotificationJobDocument {
  _id: ObjectId;
  tenantId: string;
  channel: NotificationChannel;
  audience: NotificationAudience;
  recipients: string[];
  message: MessageDocument;
  /** The submit's trace; absent on a recovered job and on jobs stored before it was kept. */
  trace?: TraceContext;
  status: NotificationStatus;
  attempts: number;
  nextAttemptAt: Date;
  claimedUntil: Date | null;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export class MongoNotificationOutbox implements NotificationOutbox {
  readonly #jobs: MongoCollection<NotificationJobDocument>;
  readonly #turns: TurnClaims<NotificationJobDocument, NotificationChannel>;

  constructor(db: MongoDatabase) {
    this.#jobs = db.collection<NotificationJobDocument>(Collections.notificationOutbox);
    this.#turns = new TurnClaims(this.#jobs, 'channel', (channel) => channel, (key) => key as NotificationChannel);
  }

  async enqueue(jobs: readonly NewNotificationJob[], now: Date): Promise<void> {
    if (jobs.length === 0) return;
    await this.#jobs.insertMany(jobs.map((job) => toDocument(job, now)));
  }

  /** Served by `status_channel_due`, taking turns between the channels (decision 0817). */
  async claimDue(now: Date, leaseMs: number, limit: number, share?: ClaimShare): Promise<NotificationJob[]> {
    return (await this.#turns.claim(now, leaseMs, limit, share)).map(toJob);
  }

  /** One `deleteMany`, served by `tenant_form_submission` (a form's: its prefix). */
  async dropJobs(tenantId: string, formId: string, submissionId?: string): Promise<number> {
    const form = parseObjectId(formId);
    if (!form) return 0;
    // Every status goes (the message carries the values).
    const filter: Record<string, unknown> = { tenantId, 'message.formId': form };
    if (submissionId !== undefined) filter['message.submissionId'] = parseObjectId(submissionId);
    return (await this.#jobs.deleteMany(filter)).deletedCount;
  }

  /** Served by `tenant_form_submission`, as `dropJobs`. */
  async listBySubmission(tenantId: string, formId: string, submissionId: string): Promise<NotificationJob[]> {
    const form = parseObjectId(formId);
    const submission = parseObjectId(submissionId);
    if (!form || !submission) return [];
    return (await this.#jobs.find({ tenantId, 'message.formId': form, 'message.submissionId': submission }).toArray()).map(toJob);
  }

  /** Served by `status_due` (`{status, nextAttemptAt}`): the three finished statuses, each a range of its due times. */
  async pruneFinished(before: Date): Promise<number> {
    return (await this.#jobs.deleteMany({ status: { $in: ['sent', 'failed', 'skipped'] }, nextAttemptAt: { $lt: before } })).deletedCount;
  }

  async complete(id: string, outcome: NotificationOutcome, now: Date): Promise<void> {
    const _id = parseObjectId(id);
    if (!_id) return;
    await this.#jobs.updateOne({ _id }, { $set: { ...outcomeFields(outcome), claimedUntil: null, updatedAt: now } });
  }

  /**
   * One aggregation over the `status_due` index's leading field: the `$match` on every status
   * lets the planner scan that index (covered: only `status` is read) instead of the collection.
   */
  async countByStatus(): Promise<Record<NotificationStatus, number>> {
    const counts: Record<NotificationStatus, number> = { pending: 0, sent: 0, failed: 0, skipped: 0 };
    const groups = await this.#jobs
      .aggregate<{ _id: NotificationStatus; count: number }>([{ $match: { status: { $in: Object.keys(counts) } } }, { $group: { _id: '$status', count: { $sum: 1 } } }])
      .toArray();
    for (const group of groups) if (Object.hasOwn(counts, group._id)) counts[group._id] = group.count;
    return counts;
  }

  async listByTenant(tenantId: string): Promise<NotificationJob[]> {
    const documents = await this.#jobs.find({ tenantId }, { sort: { createdAt: -1, _id: -1 } }).toArray();
    return documents.map(toJob);
  }
}

function outcomeFields(outcome: NotificationOutcome): Partial<NotificationJobDocument> {
  switch (outcome.status) {
    case 'sent':
      return outcome.error === undefined ? { status: 'sent' } : { status: 'sent', lastError: outcome.error };
    case 'skipped':
      return { status: 'skipped', lastError: outcome.reason };
    case 'failed':
      return { status: 'failed', lastError: outcome.error };
    case 'retry':
      return {
        lastError: outcome.error,
        nextAttemptAt: outcome.nextAttemptAt,
        ...(outcome.recipients ? { recipients: [...outcome.recipients] } : {}),
      };
  }
}

function toDocument(job: NewNotificationJob, now: Date): NotificationJobDocument {
  return {
    _id: new ObjectId(),
    tenantId: job.tenantId,
    channel: job.channel,
    audience: job.audience,
    recipients: [...job.recipients],
    message: {
      formId: toObjectId(job.message.formId),
      formSlug: job.message.formSlug,
      formTitle: { ...job.message.formTitle },
      submissionId: toObjectId(job.message.submissionId),
      values: { ...job.message.values },
      submittedBy: job.message.submittedBy,
      submittedAt: job.message.submittedAt,
    },
    ...(job.trace ? { trace: { ...job.trace } } : {}),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    claimedUntil: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
  };
}

function toJob(document: NotificationJobDocument): NotificationJob {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    channel: document.channel,
    audience: document.audience,
    recipients: [...document.recipients],
    message: toMessage(document.message),
    ...(document.trace ? { trace: { ...document.trace } } : {}),
    status: document.status,
    attempts: document.attempts,
    nextAttemptAt: document.nextAttemptAt,
    claimedUntil: document.claimedUntil ?? null,
    lastError: document.lastError ?? null,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}

function toMessage(message: MessageDocument): NotificationMessage {
  return {
    formId: fromObjectId(message.formId),
    formSlug: message.formSlug,
    formTitle: { ...message.formTitle },
    submissionId: fromObjectId(message.submissionId),
    values: { ...message.values },
    submittedBy: message.submittedBy ?? null,
    submittedAt: message.submittedAt,
  };
}
