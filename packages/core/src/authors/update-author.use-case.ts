/**
 * §6.3 `PATCH /authors/update/{id}` (bearer admin or editor): 400 `INVALID_AUTHOR_ID` → 404
 * `AUTHOR_NOT_FOUND` → 412 → body → the author as stored, `updatedAt` moved.
 */
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { conditionalUpdate, patched, patchOf, type UpdateInput } from '../shared/conditional-update.js';
import { DomainError } from '../shared/domain-error.js';
import { nextUpdatedAt } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toAuthorView, type AuthorView } from './author.js';
import { AUTHOR_INPUT_KEYS, authorFields } from './author-input.js';
import type { AuthorRepository } from './authors.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';

export class UpdateAuthor {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly authors: AuthorRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, request: UpdateInput): Promise<AuthorView> {
    requireTenantId(caller.tenantId);
    const { id: authorId, changes: body } = request;
    requireRole(caller, UpdateAuthor.access.roles);
    const id = wellFormedIdOr(authorId, ErrorCodes.INVALID_AUTHOR_ID);
    const author = await conditionalUpdate(body, request, {
      key: `author\0${caller.tenantId}\0${id}`,
      read: () => this.authors.findById(caller.tenantId, id),
      notFound: () => new DomainError(ErrorCodes.AUTHOR_NOT_FOUND, 'Author not found'),
      view: toAuthorView,
      build: async (current) => ({
        ...current,
        ...authorFields(patched(current, patchOf(body, AUTHOR_INPUT_KEYS))),
        updatedAt: nextUpdatedAt(current.updatedAt, this.clock.now()),
      }),
      write: (next, expected) => this.authors.update(next, expected),
    });
    return toAuthorView.fresh(author);
  }
}
