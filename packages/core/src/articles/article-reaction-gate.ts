/**
 * Whether an article takes reactions: it exists in the tenant, and neither it, its category nor
 * its sub-category has `reactionsEnabled: false`. Shared by article and comment reactions (a
 * comment takes reactions only where its article does).
 */
import type { ReactionTotals } from '../reactions/reaction.js';
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';

export type ArticleReactionState = 'missing' | 'disabled' | 'open';

/** The gate's answer, with the article's totals as read for it (null when it is missing). */
export interface ArticleReactionCheck {
  readonly state: ArticleReactionState;
  readonly totals: ReactionTotals | null;
}

export class ArticleReactionGate {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly categories: CategoryRepository,
  ) {}

  async stateOf(tenantId: string, articleId: string): Promise<ArticleReactionState> {
    return (await this.check(tenantId, articleId)).state;
  }

  async check(tenantId: string, articleId: string): Promise<ArticleReactionCheck> {
    const article = await this.articles.findById(tenantId, articleId);
    if (!article) return { state: 'missing', totals: null };
    const totals = { likes: article.likes, dislikes: article.dislikes };
    if (!article.reactionsEnabled) return { state: 'disabled', totals };
    const categoryIds = [article.categoryId, article.subCategoryId].filter((id): id is string => id !== null);
    if (categoryIds.length === 0) return { state: 'open', totals };
    const categories = await this.categories.findByIds(tenantId, categoryIds);
    return { state: categories.some((category) => !category.reactionsEnabled) ? 'disabled' : 'open', totals };
  }
}
