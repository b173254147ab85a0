/** §6.2 `GET /categories/getById/{id}`: 400 `INVALID_CATEGORY_ID`, 404 `CATEGORY_NOT_FOUND`. */
import type { Caller } from '../shared/caller.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { wellFormedIdOr } from '../shared/input-rules.js';
import type { CategoryRepository } from './articles.ports.js';
import { toCategoryView, type Category, type CategoryView } from './category.js';

/** The record, by its id as the caller gave it (checked: a malformed one is refused). */
export interface GetCategoryInput {
  readonly id: string;
}

export class GetCategory {
  constructor(private readonly categories: CategoryRepository) {}

  async execute(caller: Caller, { id: categoryId }: GetCategoryInput): Promise<CategoryView> {
    return toCategoryView(await findCategoryOrThrow(this.categories, caller.tenantId, categoryId));
  }
}

/** The category of a path id: malformed `INVALID_CATEGORY_ID`, absent in the tenant `CATEGORY_NOT_FOUND`. */
export async function findCategoryOrThrow(categories: CategoryRepository, tenantId: string, rawId: string): Promise<Category> {
  const category = await categories.findById(tenantId, wellFormedIdOr(rawId, ErrorCodes.INVALID_CATEGORY_ID));
  if (!category) throw new DomainError(ErrorCodes.CATEGORY_NOT_FOUND, 'Category not found');
  return category;
}
