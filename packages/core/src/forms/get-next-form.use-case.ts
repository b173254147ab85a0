/**
 * The next step of a multi-step flow (§2.9): the public view of the form named by
 * `flow.nextFormId`, or null when there is none, it is gone, inactive or internal (a public
 * caller must not be led to a form it cannot submit).
 */
import type { FormRepository } from './forms.ports.js';
import { findFormOrThrow } from './find-form.js';
import { formPublicView, type PublicForm } from './form-public-view.js';
import type { Caller } from '../shared/caller.js';

/** The current form, by its id as the caller gave it. */
export interface GetNextFormInput {
  readonly id: string;
}

export class GetNextForm {
  constructor(private readonly forms: FormRepository) {}

  /** Throws `INVALID_FORM_ID` or `FORM_NOT_FOUND` for the current form only. */
  async execute(caller: Caller, { id }: GetNextFormInput): Promise<{ nextForm: PublicForm | null }> {
    const { tenantId } = caller;
    const current = await findFormOrThrow(this.forms, tenantId, id);
    const nextId = current.flow.nextFormId;
    const next = nextId === null ? null : await this.forms.findById(tenantId, nextId);
    if (!next || !next.isActive || next.visibility !== 'public') return { nextForm: null };
    return { nextForm: formPublicView(next) };
  }
}
