/** §6.1 `GET /forms/{id}/submissions`: a form's submissions, newest first (400/404 on the form first). */
import type { Caller } from '../shared/caller.js';
import { listScope, readPage, type NestedPageInput, type PageCursors } from '../shared/page-cursor.js';
import { findFormOrThrow } from './find-form.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { submissionView, type SubmissionView } from './submission.js';

/** A page of a form's submissions: the form by its id as the caller gave it, the page's cursor and limit. */
export interface ListSubmissionsInput extends NestedPageInput {
  readonly formId: string;
}

export class ListSubmissions {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: ListSubmissionsInput): Promise<{ submissions: SubmissionView[]; nextCursor: string | null }> {
    const form = await findFormOrThrow(this.forms, caller.tenantId, input.formId);
    input.checkQuery?.();
    const scope = listScope('submissions', caller.tenantId, { formId: form.id });
    const page = await readPage(this.cursors, scope, input, (query) => this.submissions.listByForm(caller.tenantId, form.id, query));
    return { submissions: page.items.map(submissionView), nextCursor: page.nextCursor };
  }
}
