/** The editable fields of a category, checked the same way by create and update (one source). */
import { validationError } from '../shared/domain-error.js';
import { optionalFlag, optionalId, requiredText } from '../shared/input-rules.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';
import { CATEGORY_NAME_MAX, type Category } from './category.js';

export interface CategoryInput {
  readonly name?: unknown;
  readonly parentId?: unknown;
  readonly reactionsEnabled?: unknown;
}

export const CATEGORY_INPUT_KEYS = ['name', 'parentId', 'reactionsEnabled'] as const;

const NOT_TOP_LEVEL = 'must be a top-level category (one level of nesting)';
const HAS_CHILDREN = 'cannot be set on a category that has sub-categories (one level of nesting)';

/**
 * The fields, with `parentId` an existing top-level category of the tenant (one level of
 * nesting). `self`: the category being updated, which cannot be its own parent nor get one
 * while it has sub-categories.
 */
export async function categoryFields(
  input: CategoryInput,
  categories: CategoryRepository,
  tenantId: string,
  self?: Category,
): Promise<Pick<Category, (typeof CATEGORY_INPUT_KEYS)[number]>> {
  const name = requiredText(input.name, 'name', CATEGORY_NAME_MAX);
  const parentId = optionalId(input.parentId, 'parentId');
  const reactionsEnabled = optionalFlag(input.reactionsEnabled, 'reactionsEnabled', true);
  if (parentId !== null) {
    if (self && parentId === self.id) throw validationError('parentId', 'must not be the category itself');
    const parent = await categories.findById(tenantId, parentId);
    if (!parent) throw validationError('parentId', 'must be an existing category');
    if (parent.parentId !== null) throw validationError('parentId', NOT_TOP_LEVEL);
    if (self && (await hasChildren(categories, tenantId, self.id))) throw validationError('parentId', HAS_CHILDREN);
  }
  return { name, parentId, reactionsEnabled };
}

export async function hasChildren(categories: CategoryRepository, tenantId: string, id: string): Promise<boolean> {
  return (await categories.list(tenantId, { parentId: id }, { after: null, limit: 1 })).length > 0;
}

/**
 * After a category's write with a parent: the nesting its check saw may have changed before the
 * write landed (decision 0763). A parent deleted meanwhile (its delete found no sub-category then)
 * leaves this category top-level, as the delete leaves those it finds after it (the caller files
 * its articles). A parent given a parent of its own meanwhile, or sub-categories created under
 * this one meanwhile (`couldHaveChildren`: it was top-level before this write), would make two
 * levels: `takeBack` undoes the write and it is refused as its check would have refused it; of
 * two such writes racing, at least one is refused, perhaps both. Answers the category as it now
 * stands.
 */
export async function settleNesting(
  categories: CategoryRepository,
  category: Category,
  { couldHaveChildren, takeBack }: { readonly couldHaveChildren: boolean; readonly takeBack: () => Promise<unknown> },
): Promise<Category> {
  const { tenantId, parentId } = category;
  if (parentId === null) return category;
  const parent = await categories.findById(tenantId, parentId);
  if (!parent) {
    const promoted = { ...category, parentId: null };
    if (await categories.update(promoted, category.updatedAt)) return promoted;
    return (await categories.findById(tenantId, category.id)) ?? promoted; // written again since: as it stands
  }
  let refusal: string | null = null;
  if (parent.parentId !== null) refusal = NOT_TOP_LEVEL;
  else if (couldHaveChildren && (await hasChildren(categories, tenantId, category.id))) refusal = HAS_CHILDREN;
  if (refusal === null) return category;
  await takeBack();
  throw validationError('parentId', refusal);
}

/**
 * Deletes a category leaving no article that names it (decision 0763): the articles naming it are
 * cleared first (so a retry finishes an interrupted delete), then it goes, then `meanwhile` runs
 * (what else the delete settles), then they are cleared again (an article that checked the
 * category just before it went). True when there was a category to delete.
 */
export async function deleteDetached(
  categories: CategoryRepository,
  articles: ArticleRepository,
  tenantId: string,
  id: string,
  meanwhile: () => Promise<void> = async () => {},
): Promise<boolean> {
  await articles.clearCategory(tenantId, id);
  const deleted = await categories.delete(tenantId, id);
  await meanwhile();
  await articles.clearCategory(tenantId, id);
  return deleted;
}

/**
 * Makes the sub-categories of the deleted `parentId` top-level, in place (`updatedAt` kept, as a
 * cascade keeps it), their articles following them. A write racing this one is retried from a
 * fresh read.
 */
export async function promoteChildren(categories: CategoryRepository, articles: ArticleRepository, tenantId: string, parentId: string): Promise<void> {
  for (;;) {
    const children = await categories.list(tenantId, { parentId }, { after: null, limit: PROMOTE_BATCH });
    if (children.length === 0) return;
    for (const child of children) {
      if (await categories.update({ ...child, parentId: null }, child.updatedAt)) await articles.refileCategory(tenantId, child.id, null);
    }
  }
}

const PROMOTE_BATCH = 100;
