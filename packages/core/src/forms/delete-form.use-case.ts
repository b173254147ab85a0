/**
 * §6.4 `DELETE /forms/delete/{id}` (bearer admin or editor): the form, all its submissions (their
 * ids taken out of every relation that holds them) and their notification jobs, sent ones too
 * (each message carries the submission's values).
 * The steps run so that a retry of an interrupted delete finishes it, and no read meanwhile sees
 * a broken record (docs/decisions/0763-delete-cascades.md): the form is switched inactive first
 * (no new submissions), children go before the form, and the form goes last.
 */
import type { NotificationOutbox } from '../notifications/notification.ports.js';
import { deletedEvent, NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, namesVersion, nextUpdatedAt, preconditionFailed } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { requireFormId } from './find-form.js';
import type { Form } from './form.js';
import type { FormRepository, RelationHolder, SubmissionRepository } from './forms.ports.js';
import { removeDanglingRelations, removeRelationsTo } from './relation-holders.js';

/** Submissions handled per step of the cascade. */
const BATCH = 500;

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteFormInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteForm {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly outbox: NotificationOutbox,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  async execute(caller: Caller, { id: formId, ifMatch }: DeleteFormInput): Promise<void> {
    requireRole(caller, DeleteForm.access.roles);
    const { tenantId } = caller;
    const id = requireFormId(formId);
    const form = await this.forms.findById(tenantId, id);
    if (!form) throw notFound();
    checkIfMatch(ifMatch, () => form);
    // One `form.deleted` for the form; the submissions that go with it send no events of their own (decision 0783).
    await this.events.around(deletedEvent(caller, 'form.deleted', 'form', { id }), async () => {
      await this.#cascade(tenantId, form, ifMatch);
      return { result: undefined, data: { id } };
    });
  }

  async #cascade(tenantId: string, form: Form, ifMatch: string | undefined): Promise<void> {
    const { id } = form;
    // The one conditional write of the cascade: it makes the If-Match check atomic, and stops
    // new submissions while the old ones go. An inactive form takes no submissions, but with an
    // If-Match naming its version it is still written (its version claimed, decision 0765): a
    // change that landed since the check then fails this delete, not the other way round.
    if (form.isActive || namesVersion(ifMatch)) {
      const closed = { ...form, isActive: false, updatedAt: nextUpdatedAt(form.updatedAt, this.clock.now()) };
      const outcome = await this.forms.update(closed, form.updatedAt);
      if (outcome !== 'updated' && namesVersion(ifMatch)) throw preconditionFailed();
    }
    await this.outbox.dropJobs(tenantId, id);
    const holders = await this.forms.relationHoldersOf(tenantId, id);
    // Only relations in forms that target this one can hold its submissions' ids: none, no paging.
    // Otherwise page by page as an erasure does: the ids out of the relations, the submissions
    // gone, the ids out again for a connect that found its related submission just before it
    // went (it re-reads it after its write, decision 0766, so a later one takes itself back).
    for (let after = null; holders.length > 0; ) {
      const page = await this.submissions.listByForm(tenantId, id, { after, limit: BATCH, order: 'oldestFirst' });
      if (page.length === 0) break;
      const ids = page.map((submission) => submission.id);
      await removeRelationsTo(this.submissions, tenantId, holders, ids);
      await this.submissions.deleteByIds(tenantId, ids);
      await removeRelationsTo(this.submissions, tenantId, holders, ids);
      if (page.length < BATCH) break;
      after = page[page.length - 1]!;
    }
    await this.submissions.deleteByForm(tenantId, id);
    const deleted = await this.forms.delete(tenantId, id);
    // A submission that passed its form check just before the form closed may land now, and its
    // jobs after the first drop; one that lands later takes itself back (`SubmitForm`).
    await this.submissions.deleteByForm(tenantId, id);
    await this.outbox.dropJobs(tenantId, id);
    // A relation field a form update pointed at this form while it was going is not among
    // `holders`; a connect through it may have named a submission just deleted. Rare: a scan.
    const named = (holder: RelationHolder) => holders.some((known) => known.formId === holder.formId && known.fieldName === holder.fieldName);
    for (const holder of await this.forms.relationHoldersOf(tenantId, id)) {
      if (!named(holder)) await removeDanglingRelations(this.submissions, tenantId, holder);
    }
    if (!deleted) throw notFound();
  }
}

const notFound = () => new DomainError(ErrorCodes.FORM_NOT_FOUND, 'Form not found');
