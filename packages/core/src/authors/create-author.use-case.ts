import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { optionalEmail, optionalHttpUrl, optionalLongText, requiredText } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { AUTHOR_BIO_MAX, AUTHOR_NAME_MAX, toAuthorView, type Author, type AuthorView } from './author.js';
import type { AuthorRepository } from './authors.ports.js';

export interface CreateAuthorInput {
  readonly name?: unknown;
  readonly email?: unknown;
  readonly bio?: unknown;
  readonly avatarUrl?: unknown;
}

/** Creates an author. Needs a bearer token with role admin or editor. */
export class CreateAuthor {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly authors: AuthorRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: CreateAuthorInput): Promise<AuthorView> {
    requireRole(caller, CreateAuthor.access.roles);
    const now = this.clock.now();
    const author: Author = {
      id: newId(now),
      tenantId: caller.tenantId,
      name: requiredText(input.name, 'body.name', AUTHOR_NAME_MAX),
      email: optionalEmail(input.email, 'body.email'),
      bio: optionalLongText(input.bio, 'body.bio', AUTHOR_BIO_MAX, null),
      avatarUrl: optionalHttpUrl(input.avatarUrl, 'body.avatarUrl'),
      createdAt: now,
      updatedAt: now,
    };
    await this.authors.insert(author);
    return toAuthorView(author);
  }
}
