/** The relation fields that can hold ids of a form's submissions (`FormRepository.relationHoldersOf` finds them), and what a submission's relation holds. */
import type { RelationHolder, SubmissionRepository } from './forms.ports.js';
import type { Submission, SubmissionRelations } from './submission.js';

/** Takes the ids out of every relation of the tenant that can hold them. */
export async function removeRelationsTo(submissions: SubmissionRepository, tenantId: string, holders: readonly RelationHolder[], ids: readonly string[]): Promise<void> {
  for (const holder of holders) await submissions.removeRelationsTo(tenantId, holder, ids);
}

/** Submissions of the holder's form, and ids looked up, per step of `removeDanglingRelations`. */
const DANGLING_BATCH = 500;

/**
 * Takes out of the holder field, in every submission of its form, the ids of submissions that
 * no longer exist. A scan of the form's submissions: for what no cascade could know of.
 */
export async function removeDanglingRelations(submissions: SubmissionRepository, tenantId: string, holder: RelationHolder): Promise<void> {
  for (let after = null; ; ) {
    const page = await submissions.listByForm(tenantId, holder.formId, { after, limit: DANGLING_BATCH, order: 'oldestFirst' });
    const held = new Set<string>();
    for (const submission of page) for (const id of idsOf(relationValue(submission, holder.fieldName))) held.add(id);
    const ids = [...held];
    for (let start = 0; start < ids.length; start += DANGLING_BATCH) {
      const gone = await goneIds(submissions, tenantId, ids.slice(start, start + DANGLING_BATCH));
      if (gone.length > 0) await submissions.removeRelationsTo(tenantId, holder, gone);
    }
    if (page.length < DANGLING_BATCH) return;
    after = page[page.length - 1]!;
  }
}

/** Those of `ids` that name no submission of the tenant any more (one `findByIds`). */
export async function goneIds(submissions: SubmissionRepository, tenantId: string, ids: readonly string[]): Promise<string[]> {
  const present = new Set((await submissions.findByIds(tenantId, ids)).map((submission) => submission.id));
  return ids.filter((id) => !present.has(id));
}

/** Whether `relations[fieldName]` holds `relatedId` (in its list, or as its single value). */
export function holdsRelated(submission: Submission, fieldName: string, relatedId: string): boolean {
  const value = relationValue(submission, fieldName);
  return Array.isArray(value) ? value.includes(relatedId) : value === relatedId;
}

/** The related ids a submission holds over all its relation fields. */
export function relatedIdCount(relations: SubmissionRelations): number {
  let count = 0;
  for (const field in relations) {
    if (!Object.hasOwn(relations, field)) continue;
    const value = relations[field]!;
    count += typeof value === 'string' ? 1 : value.length;
  }
  return count;
}

/** The ids a relation value holds: its list, its single id, or none. */
export function idsOf(value: string | readonly string[] | undefined): readonly string[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value as string];
}

/**
 * What `relations[fieldName]` holds, read as an own key only (a field may be named `constructor`).
 * `V`: the stored form of an id (a string here, an ObjectId in the MongoDB adapter's documents).
 */
export function relationValue<V = string | string[]>(submission: { readonly relations: Readonly<Record<string, V>> }, fieldName: string): V | undefined {
  return Object.hasOwn(submission.relations, fieldName) ? submission.relations[fieldName] : undefined;
}
