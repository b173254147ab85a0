/**
 * §6.5 `POST /forms/submission/{id}/relations/{fieldName}/disconnect`: the order of connect
 * (§2.5) without the related submission's checks (it need not exist any more). One atomic
 * repository step; not connected is still 200 with the submission as it is, and sends no
 * `submission.relation.disconnected` (only a change is an event, as for approvals and reactions).
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { findRelationField, relationRequest, type RelationInput } from './connect-relation.use-case.js';
import { submissionNotFound } from './find-submission.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { writtenSubmissionView, type SubmissionView } from './submission.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';

export class DisconnectRelation {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  /** Throws `INVALID_SUBMISSION_ID`, `VALIDATION_FAILED`, `SUBMISSION_NOT_FOUND` or `RELATION_FIELD_NOT_FOUND`. */
  async execute(caller: Caller, given: RelationInput): Promise<SubmissionView> {
    const input = relationRequest(caller, given);
    const { tenantId, fieldName } = input;
    const { submissionId, relatedId, submission } = await findRelationField(this.forms, this.submissions, input);
    const witness = { kind: 'relation', submissionId, fieldName, relatedId, held: false } as const;
    return this.events.around({ tenantId, type: 'submission.relation.disconnected', witness, trace: input.trace }, async () => {
      // Later than the version read, even within the same millisecond (the ETag moves with it).
      const now = nextUpdatedAt(submission.updatedAt, this.clock.now());
      const after = await this.submissions.disconnectRelation({ tenantId, submissionId, fieldName, relatedId, now });
      if (!after) throw submissionNotFound();
      const view = writtenSubmissionView(after.submission);
      // Not connected sends no event (the store says so: a racing write may share `now`).
      return after.changed ? { result: view, data: view } : { result: view };
    });
  }
}
