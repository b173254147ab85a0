/** §6.1 `GET /forms/list`: the tenant's forms, newest first, optionally by `isActive` and `visibility`. */
import type { Caller } from '../shared/caller.js';
import { choiceFilter, dropAbsent, flagFilter, scopeText } from '../shared/list-filters.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import { FORM_VISIBILITIES, type Form } from './form.js';
import type { FormRepository } from './forms.ports.js';

export interface ListFormsInput extends PageInput {
  readonly isActive?: unknown;
  readonly visibility?: unknown;
}

export class ListForms {
  constructor(
    private readonly forms: FormRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: ListFormsInput): Promise<{ forms: Form[]; nextCursor: string | null }> {
    const filter = { isActive: flagFilter(input.isActive, 'isActive'), visibility: choiceFilter(input.visibility, 'visibility', FORM_VISIBILITIES) };
    const scope = listScope('forms', caller.tenantId, { isActive: scopeText(filter.isActive), visibility: scopeText(filter.visibility) });
    const page = await readPage(this.cursors, scope, input, (query) => this.forms.list(caller.tenantId, dropAbsent(filter), query));
    return { forms: page.items, nextCursor: page.nextCursor };
  }
}

