/**
 * Connects a related submission to a relation field of a submission (§2.5). Checks run in the
 * contract's order; the change itself is one atomic repository step, so concurrent connects to
 * one multi-value field all land. Single-value fields are replaced; multi-value fields append
 * an id once, up to RELATION_CAP ids. A related submission erased between the check and the
 * write is found gone by the write's own re-read: the connect is taken back and answers 404
 * (docs/decisions/0766-connect-racing-an-erasure.md).
 */
import { NO_WEBHOOK_EVENTS, type WebhookEventRecorder } from '../webhooks/webhook-events.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { DomainError, issuesError, validationError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { canonicalId, ID_WORDS, isWellFormedId } from '../shared/ids.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import type { TraceContext } from '../shared/trace-context.js';
import { findField } from './form.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { findSubmissionOrThrow, requireSubmissionId, submissionNotFound } from './find-submission.js';
import { goneIds, holdsRelated, idsOf, relatedIdCount, relationValue } from './relation-holders.js';
import { RELATION_CAP, RELATION_TOTAL_CAP, submissionView, type Submission, type SubmissionView } from './submission.js';
import { requireTenantId } from '../tenancy/tenant.js';

/** What connect and disconnect take (§2.5, §6.5): the submission, its relation field, the other submission. */
export interface RelationInput {
  readonly submissionId: string;
  readonly fieldName: string;
  readonly relatedSubmissionId: string;
}

/** A relation input with the caller's tenant and trace (the event's deliveries join the trace). */
export interface ConnectRelationInput extends RelationInput {
  readonly tenantId: string;
  readonly trace?: TraceContext | undefined;
}

/**
 * The caller's tenant and trace beside the relation input. Built member by member: a spread of
 * the caller's object (whatever else it carries) was a fifth of the use case's time in a profile.
 */
export const relationRequest = (caller: Caller, relation: RelationInput): ConnectRelationInput => ({
  submissionId: relation.submissionId,
  fieldName: relation.fieldName,
  relatedSubmissionId: relation.relatedSubmissionId,
  tenantId: caller.tenantId,
  trace: caller.trace,
});

/**
 * The first checks of a disconnect, in the order connect makes them too: `INVALID_SUBMISSION_ID`
 * → `VALIDATION_FAILED` (malformed related id) → `SUBMISSION_NOT_FOUND` → `RELATION_FIELD_NOT_FOUND`.
 * `ConnectRelation` writes the same steps out itself, to read both submissions in one call
 * (decision 0750): a change to the order is made in both.
 */
export async function findRelationField(forms: FormRepository, submissions: SubmissionRepository, input: ConnectRelationInput) {
  const submissionId = requireSubmissionId(input.submissionId);
  if (!isWellFormedId(input.relatedSubmissionId)) {
    throw validationError('relatedSubmissionId', ID_WORDS);
  }
  const relatedId = canonicalId(input.relatedSubmissionId);
  const submission = await findSubmissionOrThrow(submissions, input.tenantId, submissionId);
  const form = await forms.findById(input.tenantId, submission.formId);
  const relation = form ? findField(form, input.fieldName)?.relation : undefined;
  if (!relation) throw new DomainError(ErrorCodes.RELATION_FIELD_NOT_FOUND, 'Relation field not found');
  return { submissionId, relatedId, relation, submission };
}

export class ConnectRelation {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly clock: Clock,
    private readonly events: WebhookEventRecorder = NO_WEBHOOK_EVENTS,
  ) {}

  /**
   * Throws, in this order: `INVALID_SUBMISSION_ID`; `VALIDATION_FAILED` (malformed related id);
   * `SUBMISSION_NOT_FOUND`; `RELATION_FIELD_NOT_FOUND`; `RELATED_SUBMISSION_NOT_FOUND`;
   * `RELATED_SUBMISSION_OTHER_FORM`; `VALIDATION_FAILED` when the submission holds
   * RELATION_TOTAL_CAP ids and the connect would add one, or a multi-value field is full.
   */
  async execute(caller: Caller, given: RelationInput): Promise<SubmissionView> {
    requireTenantId(caller.tenantId);
    const input = relationRequest(caller, given);
    const { tenantId, fieldName } = input;
    const submissionId = requireSubmissionId(input.submissionId);
    if (!isWellFormedId(input.relatedSubmissionId)) {
      throw validationError('relatedSubmissionId', ID_WORDS);
    }
    const relatedId = canonicalId(input.relatedSubmissionId);
    // The submission and the related one in one read (decision 0750); checked in the contract's order.
    const both = await this.submissions.findByIds(tenantId, [submissionId, relatedId]);
    const submission = both.find((candidate) => candidate.id === submissionId);
    if (!submission) throw submissionNotFound();
    const form = await this.forms.findById(tenantId, submission.formId);
    const relation = form ? findField(form, fieldName)?.relation : undefined;
    if (!relation) throw new DomainError(ErrorCodes.RELATION_FIELD_NOT_FOUND, 'Relation field not found');
    const related = both.find((candidate) => candidate.id === relatedId);
    if (!related) {
      // An id a connect interrupted before its re-check left behind goes now (a retry repairs it).
      if (holdsRelated(submission, fieldName, relatedId)) await this.#withdraw(tenantId, submissionId, fieldName, relatedId, undefined);
      throw relatedSubmissionNotFound();
    }
    if (related.formId !== relation.formId) throw relatedOfOtherForm();
    if (addsAnId(submission, fieldName, relatedId, relation.multiple) && relatedIdCount(submission.relations) >= RELATION_TOTAL_CAP) {
      throw issuesError([{ path: 'relations', message: `already hold the maximum of ${RELATION_TOTAL_CAP} related submissions over all fields`, onRecord: true }]);
    }
    const witness = { kind: 'relation', submissionId, fieldName, relatedId } as const;
    return this.events.around({ tenantId, type: 'submission.relation.connected', witness, trace: input.trace }, async () => {
      const result = await this.submissions.connectRelation({
        tenantId,
        submissionId,
        fieldName,
        relatedId,
        multiple: relation.multiple,
        cap: RELATION_CAP,
        // Later than the version read, whatever the clock says: `updatedAt` is what an If-Match
        // delete compares (decisions 0760, 0765), as a disconnect's is.
        now: nextUpdatedAt(submission.updatedAt, this.clock.now()),
      });
      if (result.status === 'missing') throw submissionNotFound();
      if (result.status === 'full') {
        throw issuesError([{ path: `relations.${fieldName}`, message: `already holds the maximum of ${RELATION_CAP} related submissions`, onRecord: true }]);
      }
      if (!result.relatedExists) {
        // Erased after the check above: take the id back; the refusal discards the event.
        await this.#withdraw(tenantId, submissionId, fieldName, relatedId, result.status === 'connected' ? result.replaced : undefined);
        throw relatedSubmissionNotFound();
      }
      const view = submissionView.fresh(result.submission);
      // A connect already made changed nothing: no event (decision 0780).
      return result.status === 'connected' ? { result: view, data: view } : { result: view };
    });
  }

  /**
   * Takes `relatedId` back out of the relation; what a single-value write replaced (an id, or the
   * list a field held before the form made it single-value) is put back, less the ids that went
   * meanwhile too (they go, as the erasure would have taken them).
   */
  async #withdraw(tenantId: string, submissionId: string, fieldName: string, relatedId: string, replaced: string | readonly string[] | undefined): Promise<void> {
    const restore = typeof replaced === 'string' ? (replaced === relatedId ? null : replaced) : (replaced?.filter((id) => id !== relatedId) ?? null);
    const command = { tenantId, submissionId, fieldName, relatedId, restore };
    await this.submissions.withdrawRelation(command);
    const restored = idsOf(restore ?? undefined);
    if (restored.length === 0) return;
    for (const id of await goneIds(this.submissions, tenantId, restored)) {
      await this.submissions.withdrawRelation({ ...command, relatedId: id, restore: null });
    }
  }
}

/** Whether connecting `relatedId` adds an id to the submission: to a multi-value list not holding it, or to an empty single-value field. */
function addsAnId(submission: Submission, fieldName: string, relatedId: string, multiple: boolean): boolean {
  return multiple ? !holdsRelated(submission, fieldName, relatedId) : relationValue(submission, fieldName) === undefined;
}

export function relatedOfOtherForm(): DomainError {
  return new DomainError(ErrorCodes.RELATED_SUBMISSION_OTHER_FORM, 'Related submission belongs to another form');
}

function relatedSubmissionNotFound(): DomainError {
  return new DomainError(ErrorCodes.RELATED_SUBMISSION_NOT_FOUND, 'Related submission not found');
}
