/** Resolves a form id from a request: malformed is `INVALID_FORM_ID`, absent in the tenant `FORM_NOT_FOUND`. */
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { canonicalId, isWellFormedId } from '../shared/ids.js';
import type { Form } from './form.js';
import type { FormRepository } from './forms.ports.js';

export async function findFormOrThrow(forms: FormRepository, tenantId: string, rawId: string): Promise<Form> {
  const form = await forms.findById(tenantId, requireFormId(rawId));
  if (!form) throw new DomainError(ErrorCodes.FORM_NOT_FOUND, 'Form not found');
  return form;
}

/** A path form id in canonical form; malformed is `INVALID_FORM_ID`. */
export function requireFormId(rawId: string): string {
  if (!isWellFormedId(rawId)) throw new DomainError(ErrorCodes.INVALID_FORM_ID, 'Invalid form id');
  return canonicalId(rawId);
}
