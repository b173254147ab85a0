/** The relation fields that can hold ids of a form's submissions (`FormRepository.relationHoldersOf` finds them), and what a submission's relation holds. */
import type { RelationHolder, SubmissionRepository } from './forms.ports.js';
import type { Submission } from './submission.js';

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
