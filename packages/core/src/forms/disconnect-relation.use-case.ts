/**
 * §6.5 `POST /forms/submission/{id}/relations/{fieldName}/disconnect`: the order of connect
 * (§2.5) without the related submission's checks (it need not exist any more). One atomic
 * repository step; not connected is still 200 with the submission as it is.
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { findRelationField, relationRequest, type RelationInput } from './connect-relation.use-case.js';
import { submissionNotFound } from './find-submission.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { writtenSubmissionView, type SubmissionView } from './submission.js';

export class DisconnectRelation {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly clock: Clock,
  ) {}

  /** Throws `INVALID_SUBMISSION_ID`, `VALIDATION_FAILED`, `SUBMISSION_NOT_FOUND` or `RELATION_FIELD_NOT_FOUND`. */
  async execute(caller: Caller, given: RelationInput): Promise<SubmissionView> {
    const input = relationRequest(caller, given);
    const { submissionId, relatedId } = await findRelationField(this.forms, this.submissions, input);
    const after = await this.submissions.disconnectRelation({
      tenantId: input.tenantId,
      submissionId,
      fieldName: input.fieldName,
      relatedId,
      now: this.clock.now(),
    });
    if (!after) throw submissionNotFound();
    return writtenSubmissionView(after);
  }
}
