/** §6.1 `GET /authors/list`: the tenant's authors, newest first. */
import type { Caller } from '../shared/caller.js';
import { listScope, readPage, type PageCursors, type PageInput } from '../shared/page-cursor.js';
import { toAuthorView, type AuthorView } from './author.js';
import type { AuthorRepository } from './authors.ports.js';

export class ListAuthors {
  constructor(
    private readonly authors: AuthorRepository,
    private readonly cursors: PageCursors,
  ) {}

  async execute(caller: Caller, input: PageInput): Promise<{ authors: AuthorView[]; nextCursor: string | null }> {
    const scope = listScope('authors', caller.tenantId);
    const page = await readPage(this.cursors, scope, input, (query) => this.authors.list(caller.tenantId, query));
    return { authors: page.items.map(toAuthorView), nextCursor: page.nextCursor };
  }
}
