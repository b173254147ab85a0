/**
 * §6.4 `DELETE /forms/submission/{id}` (bearer admin or editor): erasure. The submission's id is
 * taken out of every relation that holds it and its notification jobs are dropped (sent ones too:
 * each message carries the values), before the submission itself goes, so a retry after an interruption finishes the job
 * (docs/decisions/0763-delete-cascades.md). With `If-Match` the version checked is claimed first,
 * in one conditional write, so a delete that loses a race changes nothing
 * (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { NotificationOutbox } from '../notifications/notification.ports.js';
import { deletedEvent, NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import { checkIfMatch, claimedVersion, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { findSubmissionOrThrow, requireSubmissionId, submissionNotFound } from './find-submission.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { removeRelationsTo } from './relation-holders.js';
import { submissionView } from './submission.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteSubmissionInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteSubmission {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly outbox: NotificationOutbox,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { id: submissionId, ifMatch }: DeleteSubmissionInput): Promise<void> {
    requireRole(caller, DeleteSubmission.access.roles);
    const { tenantId } = caller;
    const submission = await findSubmissionOrThrow(this.submissions, tenantId, requireSubmissionId(submissionId));
    checkIfMatch(ifMatch, () => submissionView(submission));
    const data = { id: submission.id, formId: submission.formId };
    const expected = versionToMatch(ifMatch, submission);
    // The version checked is claimed before any step of the erasure, so a delete that loses to a
    // change of the submission (a connect or disconnect of its relations) changes nothing (0765).
    if (expected && !(await this.submissions.claimVersion(tenantId, submission.id, expected, claimedVersion(submission)))) throw preconditionFailed();
    await this.events.around(deletedEvent(caller, 'submission.deleted', 'submission', data), async () => {
      const holders = await this.forms.relationHoldersOf(tenantId, submission.formId);
      await removeRelationsTo(this.submissions, tenantId, holders, [submission.id]);
      await this.outbox.dropJobs(tenantId, submission.formId, submission.id);
      const deleted = await this.submissions.delete(tenantId, submission.id);
      // A connect that checked and re-read the submission just before it went may have landed meanwhile; one that re-reads later takes itself back (decision 0766).
      await removeRelationsTo(this.submissions, tenantId, holders, [submission.id]);
      // So may the submission's own jobs, enqueued after its answer; later ones take themselves back (`SubmitForm`).
      if (deleted) await this.outbox.dropJobs(tenantId, submission.formId, submission.id);
      if (!deleted) throw submissionNotFound();
      return { result: undefined, data };
    });
  }
}
