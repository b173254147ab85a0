/** Where ids of a form's submissions can be held: the relation fields, in any form of the tenant, that target it. */
import { PAGE_LIMITS } from '../shared/page-cursor.js';
import type { FormRepository, RelationHolder, SubmissionRepository } from './forms.ports.js';
import type { Submission } from './submission.js';

export async function relationHoldersOf(forms: FormRepository, tenantId: string, formId: string): Promise<RelationHolder[]> {
  const holders: RelationHolder[] = [];
  let after = null;
  for (;;) {
    const page = await forms.list(tenantId, {}, { after, limit: PAGE_LIMITS.max });
    for (const form of page) {
      for (const section of form.sections) {
        for (const field of section.fields) if (field.relation?.formId === formId) holders.push({ formId: form.id, fieldName: field.name });
      }
    }
    if (page.length < PAGE_LIMITS.max) return holders;
    after = page[page.length - 1]!;
  }
}

/** Takes the ids out of every relation of the tenant that can hold them. */
export async function removeRelationsTo(submissions: SubmissionRepository, tenantId: string, holders: readonly RelationHolder[], ids: readonly string[]): Promise<void> {
  for (const holder of holders) await submissions.removeRelationsTo(tenantId, holder, ids);
}

/** Whether `relations[fieldName]` holds `relatedId` (in its list, or as its single value). */
export function holdsRelated(submission: Submission, fieldName: string, relatedId: string): boolean {
  const value = relationValue(submission, fieldName);
  return Array.isArray(value) ? value.includes(relatedId) : value === relatedId;
}

/** What `relations[fieldName]` holds, read as an own key only (a field may be named `constructor`). */
export function relationValue(submission: Pick<Submission, 'relations'>, fieldName: string): string | string[] | undefined {
  return Object.hasOwn(submission.relations, fieldName) ? submission.relations[fieldName] : undefined;
}
