import type { ReactionTotalsStore } from '../reactions/reactions.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { Article } from './article.js';
import type { Category } from './category.js';

export interface CategoryRepository {
  insert(category: Category): Promise<void>;
  findById(tenantId: string, id: string): Promise<Category | null>;
  /** The tenant's categories among `ids` (unknown ids are left out), in one read. */
  findByIds(tenantId: string, ids: readonly string[]): Promise<Category[]>;
  /** Replaces the category's fields only if its stored `updatedAt` is still `expected` (one atomic step); false otherwise. */
  update(category: Category, expected: Date): Promise<boolean>;
  /** Deletes the category in one atomic step; true only for the call that deleted it. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /** One keyset page of the tenant's categories; `parentId` null: top-level ones only (§6.1). */
  list(tenantId: string, filter: CategoryListFilter, page: PageQuery): Promise<Category[]>;
}

export interface CategoryListFilter {
  /** Absent: every category; null: top-level categories; an id: that category's children. */
  readonly parentId?: string | null;
}

export interface ArticleListFilter {
  readonly authorId?: string;
  /** Matches the article's category or its sub-category. */
  readonly categoryId?: string;
}

/** Articles; their reaction totals are kept here too (see `ReactionTotalsStore`). */
export interface ArticleRepository extends ReactionTotalsStore {
  insert(article: Article): Promise<void>;
  findById(tenantId: string, id: string): Promise<Article | null>;
  /** Sets `authorId` to null on every article of the author in the tenant (one update); returns how many. */
  clearAuthor(tenantId: string, authorId: string): Promise<number>;
  /**
   * Replaces the article's editable fields (never its reaction totals) only if its stored
   * `updatedAt` is still `expected`, in one atomic step; false otherwise.
   */
  update(article: Article, expected: Date): Promise<boolean>;
  /** Deletes the article in one atomic step; true only for the call that deleted it. */
  delete(tenantId: string, id: string): Promise<boolean>;
  /**
   * Sets `categoryId` / `subCategoryId` to null where they name the category (one update each;
   * an article that loses its category loses its sub-category too); returns how many articles changed.
   */
  clearCategory(tenantId: string, categoryId: string): Promise<number>;
  /**
   * Files the articles of a category where the category now is, after it was given the parent
   * `parentId` (null: made top-level): an article that named it as sub-category now names
   * `parentId` as category (or, top-level, it as category and no sub-category); one that named it
   * as category names `parentId` and it as sub-category. At most one update each; returns how
   * many articles changed.
   */
  refileCategory(tenantId: string, categoryId: string, parentId: string | null): Promise<number>;
  /** One keyset page of the tenant's articles matching every given filter (§6.1). */
  list(tenantId: string, filter: ArticleListFilter, page: PageQuery): Promise<Article[]>;
}

export const CategoryRepositoryToken: PortToken<CategoryRepository> = portToken('CategoryRepository');
export const ArticleRepositoryToken: PortToken<ArticleRepository> = portToken('ArticleRepository');
