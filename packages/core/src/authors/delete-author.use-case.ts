/**
 * Deletes an author; its articles stay, with `authorId: null`. Order: bearer token with role
 * admin or editor (401 / 403), then a malformed or unknown id is `AUTHOR_NOT_FOUND`, then
 * `If-Match` (412, §6.3). With a tag named, the author goes only if it is still the version checked
 * (one compare-and-delete) and its articles are detached only then: a delete that loses to an
 * update has changed nothing (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toAuthorView } from './author.js';
import type { AuthorRepository } from './authors.ports.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteAuthorInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteAuthor {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly authors: AuthorRepository,
    private readonly articles: ArticleRepository,
  ) {}

  async execute(caller: Caller, { id: authorId, ifMatch }: DeleteAuthorInput): Promise<void> {
    requireRole(caller, DeleteAuthor.access.roles);
    const id = wellFormedIdOr(authorId, ErrorCodes.AUTHOR_NOT_FOUND);
    const expected = ifMatch === undefined ? undefined : await this.#checkedVersion(caller.tenantId, id, ifMatch);
    const deleted = await this.authors.delete(caller.tenantId, id, expected);
    if (!deleted && expected) throw preconditionFailed(); // changed, or deleted by another call, since the check
    // Detach articles even when this call found nothing to delete: a retry after a failure
    // between the two steps then finishes the job instead of leaving dangling author ids.
    await this.articles.clearAuthor(caller.tenantId, id);
    if (!deleted) throw notFound();
  }

  /** `If-Match` against the author as stored: the version the delete must still find (none for `*`). */
  async #checkedVersion(tenantId: string, id: string, ifMatch: string): Promise<Date | undefined> {
    const author = await this.authors.findById(tenantId, id);
    if (!author) throw notFound();
    checkIfMatch(ifMatch, () => toAuthorView(author));
    return versionToMatch(ifMatch, author);
  }
}

const notFound = () => new DomainError(ErrorCodes.AUTHOR_NOT_FOUND, 'Author not found');
