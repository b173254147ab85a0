/**
 * §6.4 `DELETE /categories/delete/{id}` (bearer admin or editor): 409 while it has sub-categories;
 * otherwise the articles that name it get `categoryId` / `subCategoryId` null first, then the
 * category goes, so a retry finishes an interrupted delete (docs/decisions/0763-delete-cascades.md).
 * With `If-Match`, one conditional write claims the category before any article changes, so of
 * racing writers holding the same version exactly one wins (docs/decisions/0765-atomic-if-match-on-deletes.md).
 */
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { checkIfMatch, claimedVersion, preconditionFailed, versionToMatch } from '../shared/entity-tag.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { requiresRoles } from '../shared/access.js';
import { requireRole } from '../shared/require-user.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { toCategoryView } from './category.js';
import { deleteDetached, hasChildren, promoteChildren } from './category-input.js';
import { findCategoryOrThrow } from './get-category.use-case.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). `ifMatch`: the `If-Match` condition, if any. */
export interface DeleteCategoryInput {
  readonly id: string;
  readonly ifMatch?: string | undefined;
}

export class DeleteCategory {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly categories: CategoryRepository,
    private readonly articles: ArticleRepository,
  ) {}

  async execute(caller: Caller, { id: categoryId, ifMatch }: DeleteCategoryInput): Promise<void> {
    requireRole(caller, DeleteCategory.access.roles);
    const { tenantId } = caller;
    const category = await findCategoryOrThrow(this.categories, tenantId, categoryId);
    checkIfMatch(ifMatch, () => toCategoryView(category));
    if (await hasChildren(this.categories, tenantId, category.id)) {
      throw new DomainError(ErrorCodes.CATEGORY_HAS_CHILDREN, 'Category has sub-categories');
    }
    const expected = versionToMatch(ifMatch, category);
    if (expected && !(await this.categories.update({ ...category, updatedAt: claimedVersion(category) }, expected))) throw preconditionFailed();
    // A sub-category created or moved under it since the check above becomes top-level, its
    // articles following it, before the articles are cleared a second time.
    const deleted = await deleteDetached(this.categories, this.articles, tenantId, category.id, () => promoteChildren(this.categories, this.articles, tenantId, category.id));
    if (!deleted) throw new DomainError(ErrorCodes.CATEGORY_NOT_FOUND, 'Category not found');
  }
}
