/**
 * Deletes an author; its articles stay, with `authorId: null`. Order: bearer token with role
 * admin or editor (401 / 403), then a malformed or unknown id is `AUTHOR_NOT_FOUND`, then
 * `If-Match` (412, §6.3). With a tag named, the delete first claims the version checked (one
 * conditional write), and its articles are detached only then: a delete that loses to an update
 * has changed nothing (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { ArticleRepository } from '../articles/articles.ports.js';
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, claimedVersion, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
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
    const { tenantId } = caller;
    const id = wellFormedIdOr(authorId, ErrorCodes.AUTHOR_NOT_FOUND);
    if (ifMatch !== undefined) await this.#claim(tenantId, id, ifMatch);
    // The articles first and the author last (decision 0763): a process killed in between
    // leaves articles without an author, never naming one that is gone, and a retry finishes
    // the job (this step runs even when the author is gone already).
    await this.articles.clearAuthor(tenantId, id);
    if (!(await this.authors.delete(tenantId, id))) throw notFound();
    // An article whose author check passed just before the author went may have landed: this
    // takes it, and one that re-reads its author later detaches itself.
    await this.articles.clearAuthor(tenantId, id);
  }

  /**
   * `If-Match` against the author as stored, then made atomic by one conditional write that
   * claims that version before anything else changes (decision 0765): a delete that loses to
   * an update changes nothing.
   */
  async #claim(tenantId: string, id: string, ifMatch: string): Promise<void> {
    const author = await this.authors.findById(tenantId, id);
    if (!author) throw notFound();
    checkIfMatch(ifMatch, () => toAuthorView(author));
    const expected = versionToMatch(ifMatch, author);
    if (expected && !(await this.authors.update({ ...author, updatedAt: claimedVersion(author) }, expected))) throw preconditionFailed();
  }
}

const notFound = () => new DomainError(ErrorCodes.AUTHOR_NOT_FOUND, 'Author not found');
