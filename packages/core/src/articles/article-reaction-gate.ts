/**
 * Whether an article takes reactions: it exists in the tenant, and neither it, its category nor
 * its sub-category has `reactionsEnabled: false`. Shared by article and comment reactions (a
 * comment takes reactions only where its article does).
 */
import type { ArticleRepository, CategoryRepository } from './articles.ports.js';

export type ArticleReactionState = 'missing' | 'disabled' | 'open';

export class ArticleReactionGate {
  constructor(
    private readonly articles: ArticleRepository,
    private readonly categories: CategoryRepository,
  ) {}

  async stateOf(tenantId: string, articleId: string): Promise<ArticleReactionState> {
    const article = await this.articles.findById(tenantId, articleId);
    if (!article) return 'missing';
    if (!article.reactionsEnabled) return 'disabled';
    const categoryIds = [article.categoryId, article.subCategoryId].filter((id): id is string => id !== null);
    if (categoryIds.length === 0) return 'open';
    const categories = await this.categories.findByIds(tenantId, categoryIds);
    return categories.some((category) => !category.reactionsEnabled) ? 'disabled' : 'open';
  }
}
