/**
 * Deletes an author; its articles stay, with `authorId: null`. Order: bearer token with role
 * admin or editor (401 / 403), then a malformed or unknown id is `AUTHOR_NOT_FOUND`.
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import type { AuthorRepository } from './authors.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface DeleteAuthorInput {
  readonly id: string;
}

export class DeleteAuthor {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly authors: AuthorRepository,
    private readonly articles: ArticleRepository,
  ) {}

  async execute(caller: Caller, { id: authorId }: DeleteAuthorInput): Promise<void> {
    requireRole(caller, DeleteAuthor.access.roles);
    const id = wellFormedIdOr(authorId, ErrorCodes.AUTHOR_NOT_FOUND);
    const deleted = await this.authors.delete(caller.tenantId, id);
    // Detach articles even when this call found nothing to delete: a retry after a failure
    // between the two steps then finishes the job instead of leaving dangling author ids.
    await this.articles.clearAuthor(caller.tenantId, id);
    if (!deleted) throw new DomainError(ErrorCodes.AUTHOR_NOT_FOUND, 'Author not found');
  }
}
