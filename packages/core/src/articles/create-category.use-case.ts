import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { toCategoryView, type Category, type CategoryView } from './category.js';
import { CATEGORY_INPUT_KEYS, categoryFields, deleteDetached, settleNesting, type CategoryInput } from './category-input.js';
import { requireKnownKeys } from '../shared/shape-rules.js';
import { requireTenantId } from '../tenancy/tenant.js';

export type CreateCategoryInput = CategoryInput;

const CATEGORY_KEYS: ReadonlySet<string> = new Set(CATEGORY_INPUT_KEYS);

/**
 * Creates a category (bearer token, admin or editor). With `parentId` it is a sub-category of
 * that existing top-level category: one level of nesting, no deeper.
 */

export class CreateCategory {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly categories: CategoryRepository,
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: CreateCategoryInput): Promise<CategoryView> {
    requireTenantId(caller.tenantId);
    requireRole(caller, CreateCategory.access.roles);
    requireKnownKeys(input, '', CATEGORY_KEYS);
    const fields = await categoryFields(input, this.categories, caller.tenantId);
    const now = this.clock.now();
    const category: Category = { id: newId(now, caller.tenantId), tenantId: caller.tenantId, ...fields, createdAt: now, updatedAt: now };
    await this.categories.insert(category);
    // Refused after all (its parent was given a parent meanwhile): it goes as a delete would take
    // it, since for a moment it stood and an article may have been filed under it (decision 0763).
    const takeBack = () => deleteDetached(this.categories, this.articles, category.tenantId, category.id);
    return toCategoryView.fresh(await settleNesting(this.categories, category, { couldHaveChildren: false, takeBack }));
  }
}
