/** Articles, with their reaction totals stored on the record so reading them is one lookup. */
import { visibleTotals } from '../reactions/reaction.js';
import { viewPerSnapshot } from '../shared/frozen-snapshots.js';

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

/** What callers receive of an article: one shared frozen view per stored snapshot (`viewPerSnapshot`). */
export const toArticleView = viewPerSnapshot(({ tenantId: _tenantId, ...view }: Article): ArticleView => ({ ...view, ...visibleTotals(view) }));

/** The data of both article reaction operations: the article's totals after the change. */
export interface ArticleReactionTotals {
  readonly articleId: string;
  readonly likes: number;
  readonly dislikes: number;
}
