/** Reads one form of the tenant as stored (the full view, for the tenant's own back office). */
import type { Form } from './form.js';
import type { FormRepository } from './forms.ports.js';
import { findFormOrThrow } from './find-form.js';
import type { Caller } from '../shared/caller.js';

/** The form, by its id as the caller gave it. */
export interface GetFormInput {
  readonly id: string;
}

export class GetForm {
  constructor(private readonly forms: FormRepository) {}

  /** Throws `INVALID_FORM_ID` or `FORM_NOT_FOUND`. */
  execute(caller: Caller, { id }: GetFormInput): Promise<Form> {
    return findFormOrThrow(this.forms, caller.tenantId, id);
  }
}
