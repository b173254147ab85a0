/** Articles, with their reaction totals stored on the record so reading them is one lookup. */
import { visibleTotals } from '../reactions/reaction.js';
import { viewPerSnapshot, type SnapshotView } from '../shared/frozen-snapshots.js';

export const ARTICLE_TITLE_MAX = 500;
/** Large enough for any article that fits in a 1 MiB request body. */
export const ARTICLE_CONTENT_MAX = 500_000;

export interface Article {
  readonly id: string;
  readonly tenantId: string;
  readonly title: string;
  readonly content: string;
  /** The author record; null when none was given or the author has been deleted. */
  readonly authorId: string | null;
  readonly categoryId: string | null;
  readonly subCategoryId: string | null;
  readonly reactionsEnabled: boolean;
  readonly likes: number;
  readonly dislikes: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type ArticleView = Omit<Article, 'tenantId'>;

/**
 * Where an article that names category `categoryId` (as its category or sub-category) is filed
 * once that category has the parent `parentId` (decision 0762): under the parent with the
 * category as sub-category, or under the category alone once it is top-level.
 */
export function filedUnder(categoryId: string, parentId: string | null): Pick<Article, 'categoryId' | 'subCategoryId'> {
  return parentId === null ? { categoryId, subCategoryId: null } : { categoryId: parentId, subCategoryId: categoryId };
}

/** What callers receive of an article: one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const toArticleView: SnapshotView<Article, ArticleView> = viewPerSnapshot(({ tenantId: _tenantId, ...view }: Article): ArticleView => ({ ...view, ...visibleTotals(view) }));

/** The data of both article reaction operations: the article's totals after the change. */
export interface ArticleReactionTotals {
  readonly articleId: string;
  readonly likes: number;
  readonly dislikes: number;
}
