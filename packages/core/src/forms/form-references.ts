/** The forms a form definition refers to (relation targets, flow) must be forms of the tenant. */
import { validationError } from '../shared/domain-error.js';
import { isWellFormedId } from '../shared/ids.js';
import type { FormRepository } from './forms.ports.js';
import type { FormReference } from './normalize-form-input.js';

export async function requireExistingForms(forms: FormRepository, tenantId: string, references: readonly FormReference[]): Promise<void> {
  if (references.length === 0) return;
  const wanted = [...new Set(references.map((reference) => reference.formId).filter(isWellFormedId))];
  const existing = new Set(wanted.length > 0 ? await forms.existingIds(tenantId, wanted) : []);
  const missing = references.find((reference) => !existing.has(reference.formId));
  if (missing) throw validationError(missing.path, 'does not name a form of this tenant');
}
