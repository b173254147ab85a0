/**
 * §6.3 `PATCH /categories/update/{id}` (bearer admin or editor): `name`, `reactionsEnabled`,
 * `parentId` under the one-level rule of create; a category with sub-categories cannot get a parent.
 * A category that moves takes its articles with it: they stay filed under it, wherever it now is
 * (docs/decisions/0762-updates.md).
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
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { toCategoryView, type Category, type CategoryView } from './category.js';
import { CATEGORY_INPUT_KEYS, categoryFields, settleNesting } from './category-input.js';
import { requireTenantId } from '../tenancy/tenant.js';

export class UpdateCategory {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresRoles('admin', 'editor');

  constructor(
    private readonly categories: CategoryRepository,
    private readonly articles: ArticleRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, request: UpdateInput): Promise<CategoryView> {
    requireTenantId(caller.tenantId);
    const { id: categoryId, changes: body } = request;
    requireRole(caller, UpdateCategory.access.roles);
    const id = wellFormedIdOr(categoryId, ErrorCodes.INVALID_CATEGORY_ID);
    let replaced: Category | undefined; // the record the write that landed replaced
    const category = await conditionalUpdate(body, request, {
      key: `category\0${caller.tenantId}\0${id}`,
      read: () => this.categories.findById(caller.tenantId, id),
      notFound: () => new DomainError(ErrorCodes.CATEGORY_NOT_FOUND, 'Category not found'),
      view: toCategoryView,
      build: async (current) => ({
        ...current,
        ...(await categoryFields(patched(current, patchOf(body, CATEGORY_INPUT_KEYS)), this.categories, caller.tenantId, current)),
        updatedAt: nextUpdatedAt(current.updatedAt, this.clock.now()),
      }),
      write: async (next, expected, current) => {
        const written = await this.categories.update(next, expected);
        if (written) replaced = current;
        return written;
      },
    });
    if (!replaced) return toCategoryView(category); // `{}`: nothing was written
    const before: Category = replaced;
    const { parentId: parentBefore } = before;
    // Refused after all: the record goes back to what it was, `updatedAt` and so its entity tag
    // included (a refused PATCH changes nothing, §6.3), unless another write came since; and so
    // do articles an article's write filed after the move meanwhile (0763).
    const takeBack = async () => {
      if (await this.categories.update(before, category.updatedAt)) await this.#fileArticles(before);
    };
    // Only a category that was top-level can have had sub-categories created under it meanwhile.
    const settled = await settleNesting(this.categories, category, { couldHaveChildren: parentBefore === null, takeBack });
    // A move files the category's articles where it went. A PATCH naming `parentId` does so even
    // when nothing moved: retrying a move that failed after its write finishes it.
    const named = patchOf(body, CATEGORY_INPUT_KEYS).parentId !== undefined;
    if (named || settled.parentId !== parentBefore) await this.#fileArticles(settled);
    return toCategoryView.fresh(settled);
  }

  /**
   * Files the category's articles under the parent it has when the refile is done: a racing
   * move may write after this one and refile before it, so each refile is checked against a
   * fresh read and done again for the parent stored since (while moves keep racing, at most
   * MAX_REFILES times; each racing move checks its own refile the same way).
   */
  async #fileArticles({ tenantId, id, parentId: written }: Category): Promise<void> {
    let parentId = written;
    for (let refile = 0; refile < MAX_REFILES; refile += 1) {
      await this.articles.refileCategory(tenantId, id, parentId);
      const stored = await this.categories.findById(tenantId, id);
      if (!stored || stored.parentId === parentId) return;
      parentId = stored.parentId;
    }
  }
}

const MAX_REFILES = 5;
