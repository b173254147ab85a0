/** Reads one submission of the tenant as stored now (its relations included). */
import type { SubmissionRepository } from './forms.ports.js';
import { findSubmissionOrThrow, requireSubmissionId } from './find-submission.js';
import { submissionView, type SubmissionView } from './submission.js';

export class GetSubmission {
  constructor(private readonly submissions: SubmissionRepository) {}

  /** Throws `INVALID_SUBMISSION_ID` or `SUBMISSION_NOT_FOUND`. */
  async execute(tenantId: string, id: string): Promise<SubmissionView> {
    return submissionView(await findSubmissionOrThrow(this.submissions, tenantId, requireSubmissionId(id)));
  }
}
