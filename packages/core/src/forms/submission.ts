/** Form submissions: what is stored, and the view callers receive (everything but the tenant). */
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';

/** Field name → the related submission id (single-value) or ids in connect order (multi-value). */
export type SubmissionRelations = Record<string, string | string[]>;

export interface Submission {
  id: string;
  tenantId: string;
  formId: string;
  /** Answers by field name; fields left unanswered are absent. */
  values: Record<string, unknown>;
  /** Starts `{}`; a key appears on the first connect to that relation field. */
  relations: SubmissionRelations;
  /** The submitting user's id, null for a guest. */
  submittedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /**
   * Set by a submit whose form sends notifications, taken off once its jobs are in the outbox:
   * from this time on a dispatcher pass enqueues the jobs itself, should the process that
   * stored the submission have died before it did (decision 0798). Never shown to callers.
   */
  notificationsRecoverAt?: Date;
}

export type SubmissionView = Omit<Submission, 'tenantId' | 'notificationsRecoverAt'>;

/** The most ids one multi-value relation field holds. */
export const RELATION_CAP = 500;

/**
 * The most related ids one submission holds over all its relation fields, those its form no
 * longer has included: a bound on its size (on MongoDB a submission is one document, of 16 MiB at
 * most; 50,000 ids take about 1.7 MB of it). A connect checks it against the submission as read,
 * so connects racing for the last place may each pass it: it can be exceeded by as many as race
 * (decision 0832).
 */
export const RELATION_TOTAL_CAP = 50_000;

/**
 * A submission's view, built afresh: what `submissionView` works out once per snapshot, and what
 * `submissionView.fresh` hands a write's answer (a shared view of a snapshot just stored would
 * only add work to the write: decision 0844).
 */
export function writtenSubmissionView(submission: Submission): SubmissionView {
  const { id, formId, values, relations, submittedBy, createdAt, updatedAt } = submission;
  return { id, formId, values, relations, submittedBy, createdAt, updatedAt };
}

/** What callers receive of a submission: one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const submissionView: SnapshotView<Submission, SubmissionView> = viewPerSnapshot(writtenSubmissionView);
