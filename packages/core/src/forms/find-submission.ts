/** Resolves a submission id from a request: malformed is `INVALID_SUBMISSION_ID`, absent `SUBMISSION_NOT_FOUND`. */
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { canonicalId, isWellFormedId } from '../shared/ids.js';
import type { SubmissionRepository } from './forms.ports.js';
import type { Submission } from './submission.js';

export function requireSubmissionId(rawId: string): string {
  if (!isWellFormedId(rawId)) throw new DomainError(ErrorCodes.INVALID_SUBMISSION_ID, 'Invalid submission id');
  return canonicalId(rawId);
}

export const submissionNotFound = () => new DomainError(ErrorCodes.SUBMISSION_NOT_FOUND, 'Submission not found');

export async function findSubmissionOrThrow(submissions: SubmissionRepository, tenantId: string, id: string): Promise<Submission> {
  const submission = await submissions.findById(tenantId, id);
  if (!submission) throw submissionNotFound();
  return submission;
}
