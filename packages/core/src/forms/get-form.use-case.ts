/** Reads one form of the tenant as stored (the full view, for the tenant's own back office). */
import type { Form } from './form.js';
import type { FormRepository } from './forms.ports.js';
import { findFormOrThrow } from './find-form.js';

export class GetForm {
  constructor(private readonly forms: FormRepository) {}

  /** Throws `INVALID_FORM_ID` or `FORM_NOT_FOUND`. */
  execute(tenantId: string, id: string): Promise<Form> {
    return findFormOrThrow(this.forms, tenantId, id);
  }
}
