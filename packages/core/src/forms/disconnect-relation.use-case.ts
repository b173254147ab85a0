/**
 * §6.5 `POST /forms/submission/{id}/relations/{fieldName}/disconnect`: the order of connect
 * (§2.5), except that the related submission need not exist. One atomic repository step; not
 * connected is still 200 with the submission as it is, and sends no
 * `submission.relation.disconnected` (only a change is an event, as for approvals and reactions).
 *
 * An id the field holds is always taken out, whatever form its submission belongs to now: a form
 * update that points the field at another form keeps what old submissions hold (§6.3), and
 * those ids must stay removable. An id the field does not hold is checked as connect checks it:
 * a submission of another form than the field's is 400 (decision 0813).
 */
import { requireTenantId } from '../tenancy/tenant.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { findRelationField, relatedOfOtherForm, relationRequest, type RelationInput } from './connect-relation.use-case.js';
import { submissionNotFound } from './find-submission.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { holdsRelated } from './relation-holders.js';
import { submissionView, type SubmissionView } from './submission.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';

export class DisconnectRelation {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  /**
   * Throws, in this order: `INVALID_SUBMISSION_ID`, `VALIDATION_FAILED`, `SUBMISSION_NOT_FOUND`,
   * `RELATION_FIELD_NOT_FOUND`, `RELATED_SUBMISSION_OTHER_FORM` (an id not held only).
   */
  async execute(caller: Caller, given: RelationInput): Promise<SubmissionView> {
    requireTenantId(caller.tenantId);
    const input = relationRequest(caller, given);
    const { tenantId, fieldName } = input;
    const { submissionId, relatedId, relation, submission } = await findRelationField(this.forms, this.submissions, input);
    if (!holdsRelated(submission, fieldName, relatedId)) {
      const related = await this.submissions.findById(tenantId, relatedId);
      if (related && related.formId !== relation.formId) throw relatedOfOtherForm();
    }
    const witness = { kind: 'relation', submissionId, fieldName, relatedId, held: false } as const;
    return this.events.around({ tenantId, type: 'submission.relation.disconnected', witness, trace: input.trace }, async () => {
      // Later than the version read, even within the same millisecond (the ETag moves with it).
      const now = nextUpdatedAt(submission.updatedAt, this.clock.now());
      const after = await this.submissions.disconnectRelation({ tenantId, submissionId, fieldName, relatedId, now });
      if (!after) throw submissionNotFound();
      const view = submissionView.fresh(after.submission);
      // Not connected sends no event (the store says so: a racing write may share `now`).
      return after.changed ? { result: view, data: view } : { result: view };
    });
  }
}
