/**
 * §6.6 `GET /forms/{id}/submissions/export`: every submission of a form, oldest first, as CSV
 * (RFC 4180) or NDJSON. The form and the format are checked before anything is produced (so
 * errors are ordinary answers); the rows are then read in keyset batches as the caller consumes
 * them, so memory holds one batch whatever the number of submissions.
 */
import type { Caller } from '../shared/caller.js';
import { choiceFilter } from '../shared/list-filters.js';
import type { NestedPageInput } from '../shared/page-cursor.js';
import { findFormOrThrow } from './find-form.js';
import type { Form } from './form.js';
import type { SubmissionRepository, FormRepository } from './forms.ports.js';
import type { Submission } from './submission.js';
import { csvChunks, EXPORT_BATCH, ndjsonChunks } from './submission-export-text.js';

export const EXPORT_FORMATS = ['csv', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface SubmissionExport {
  readonly form: Form;
  readonly format: ExportFormat;
  /** The export's text, a chunk per batch of submissions (CSV starts with its header row). */
  readonly chunks: AsyncIterable<string>;
}

/** The form by its id as the caller gave it; `format` `csv` (default) or `ndjson`; the adapter's query check, run once the form is found. */
export interface ExportSubmissionsInput extends Pick<NestedPageInput, 'checkQuery'> {
  readonly formId: string;
  readonly format?: unknown;
}

export class ExportSubmissions {
  constructor(
    private readonly forms: FormRepository,
    private readonly submissions: SubmissionRepository,
  ) {}

  /** Throws `INVALID_FORM_ID`, `FORM_NOT_FOUND` or `VALIDATION_FAILED` (format); reading `chunks` does the rest. */
  async execute(caller: Caller, input: ExportSubmissionsInput): Promise<SubmissionExport> {
    const form = await findFormOrThrow(this.forms, caller.tenantId, input.formId);
    input.checkQuery?.();
    const format = choiceFilter(input.format, 'format', EXPORT_FORMATS) ?? 'csv';
    const batches = this.#batches(caller.tenantId, form.id);
    return { form, format, chunks: format === 'csv' ? csvChunks(form, batches) : ndjsonChunks(batches) };
  }

  async *#batches(tenantId: string, formId: string): AsyncGenerator<Submission[]> {
    for (let after = null; ; ) {
      const page = await this.submissions.listByForm(tenantId, formId, { after, limit: EXPORT_BATCH, order: 'oldestFirst' });
      if (page.length > 0) yield page;
      if (page.length < EXPORT_BATCH) return;
      after = page[page.length - 1]!;
    }
  }
}
