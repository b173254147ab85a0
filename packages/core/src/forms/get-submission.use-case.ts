/** Reads one submission of the tenant as stored now (its relations included). */
import type { SubmissionRepository } from './forms.ports.js';
import { findSubmissionOrThrow, requireSubmissionId } from './find-submission.js';
import { submissionView, type SubmissionView } from './submission.js';
import type { Caller } from '../shared/caller.js';

/** The submission, by its id as the caller gave it. */
export interface GetSubmissionInput {
  readonly id: string;
}

export class GetSubmission {
  constructor(private readonly submissions: SubmissionRepository) {}

  /** Throws `INVALID_SUBMISSION_ID` or `SUBMISSION_NOT_FOUND`. */
  async execute(caller: Caller, { id }: GetSubmissionInput): Promise<SubmissionView> {
    return submissionView(await findSubmissionOrThrow(this.submissions, caller.tenantId, requireSubmissionId(id)));
  }
}
