import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { validationError } from '../shared/domain-error.js';
import { newId } from '../shared/ids.js';
import { optionalFlag, optionalId, requiredText } from '../shared/input-rules.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import type { CategoryRepository } from './articles.ports.js';
import { CATEGORY_NAME_MAX, toCategoryView, type Category, type CategoryView } from './category.js';

export interface CreateCategoryInput {
  readonly name?: unknown;
  readonly parentId?: unknown;
  readonly reactionsEnabled?: unknown;
}

/**
 * Creates a category (bearer token, admin or editor). With `parentId` it is a sub-category of
 * that existing top-level category: one level of nesting, no deeper.
 */
export class CreateCategory {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly categories: CategoryRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: CreateCategoryInput): Promise<CategoryView> {
    requireRole(caller, CreateCategory.access.roles);
    const name = requiredText(input.name, 'body.name', CATEGORY_NAME_MAX);
    const parentId = optionalId(input.parentId, 'body.parentId');
    const reactionsEnabled = optionalFlag(input.reactionsEnabled, 'body.reactionsEnabled', true);
    if (parentId !== null) {
      const parent = await this.categories.findById(caller.tenantId, parentId);
      if (!parent) throw validationError('body.parentId', 'must be an existing category');
      if (parent.parentId !== null) throw validationError('body.parentId', 'must be a top-level category (one level of nesting)');
    }
    const now = this.clock.now();
    const category: Category = { id: newId(now), tenantId: caller.tenantId, name, parentId, reactionsEnabled, createdAt: now, updatedAt: now };
    await this.categories.insert(category);
    return toCategoryView(category);
  }
}
