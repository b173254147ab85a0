import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import { toAuthorView, type Author, type AuthorView } from './author.js';
import { authorFields, type AuthorInput } from './author-input.js';
import type { AuthorRepository } from './authors.ports.js';
import { requireKnownKeys } from '../shared/shape-rules.js';
import { AUTHOR_INPUT_KEYS } from './author-input.js';
import { requireTenantId } from '../tenancy/tenant.js';

export type CreateAuthorInput = AuthorInput;

const AUTHOR_KEYS: ReadonlySet<string> = new Set(AUTHOR_INPUT_KEYS);

/** Creates an author. Needs a bearer token with role admin or editor. */
export class CreateAuthor {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly authors: AuthorRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: CreateAuthorInput): Promise<AuthorView> {
    requireTenantId(caller.tenantId);
    requireRole(caller, CreateAuthor.access.roles);
    requireKnownKeys(input, '', AUTHOR_KEYS);
    const now = this.clock.now();
    const author: Author = {
      id: newId(now, caller.tenantId),
      tenantId: caller.tenantId,
      ...authorFields(input),
      createdAt: now,
      updatedAt: now,
    };
    await this.authors.insert(author);
    return toAuthorView.fresh(author);
  }
}
