/** §6.1 `GET /forms/{id}/submissions`: a form's submissions, newest first (400/404 on the form first). */
import type { Caller } from '../shared/caller.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import { findFormOrThrow } from './find-form.js';
import type { FormRepository, SubmissionRepository } from './forms.ports.js';
import { submissionView, type SubmissionView } from './submission.js';

export class ListSubmissions {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, formId: string, input: PageInput): Promise<{ submissions: SubmissionView[]; nextCursor: string | null }> {
    const form = await findFormOrThrow(this.forms, caller.tenantId, formId);
    const scope = listScope('submissions', caller.tenantId, { formId: form.id });
    const page = await readPage(this.cursors, scope, input, (query) => this.submissions.listByForm(caller.tenantId, form.id, query));
    return { submissions: page.items.map(submissionView), nextCursor: page.nextCursor };
  }
}
