/** The forms a form definition refers to (relation targets, flow) must be forms of the tenant. */
import { validationError } from '../shared/domain-error.js';
import { isWellFormedId } from '../shared/ids.js';
import { findField, type Form } from './form.js';
import type { FormRepository } from './forms.ports.js';
import type { FormReference } from './normalize-form-input.js';

/**
 * Throws `VALIDATION_FAILED` at the first reference to a form the tenant does not have, unless
 * `kept` says the reference was there before (an update keeps what it does not change, decision 0762).
 */
export async function requireExistingForms(
  forms: FormRepository,
  tenantId: string,
  references: readonly FormReference[],
  kept: (reference: FormReference) => boolean = () => false,
): Promise<void> {
  if (references.length === 0) return;
  const wanted = [...new Set(references.map((reference) => reference.formId).filter(isWellFormedId))];
  const existing = new Set(wanted.length > 0 ? await forms.existingIds(tenantId, wanted) : []);
  const missing = references.find((reference) => !existing.has(reference.formId) && !kept(reference));
  if (missing) throw validationError(missing.path, 'does not name a form of this tenant');
}

/** True when the stored form already makes this reference: the same flow key or relation field, to the same form. */
export function madeBy(form: Form, reference: FormReference): boolean {
  const { holder, formId } = reference;
  if (holder === 'flow.nextFormId') return form.flow.nextFormId === formId;
  if (holder === 'flow.previousFormId') return form.flow.previousFormId === formId;
  return findField(form, holder)?.relation?.formId === formId;
}
