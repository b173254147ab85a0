import type { ReactionTotalsStore } from '../reactions/reactions.ports.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { Article } from './article.js';
import type { Category } from './category.js';

export interface CategoryRepository {
  insert(category: Category): Promise<void>;
  findById(tenantId: string, id: string): Promise<Category | null>;
  /** The tenant's categories among `ids` (unknown ids are left out), in one read. */
  findByIds(tenantId: string, ids: readonly string[]): Promise<Category[]>;
}

/** Articles; their reaction totals are kept here too (see `ReactionTotalsStore`). */
export interface ArticleRepository extends ReactionTotalsStore {
  insert(article: Article): Promise<void>;
  findById(tenantId: string, id: string): Promise<Article | null>;
  /** Sets `authorId` to null on every article of the author in the tenant (one update); returns how many. */
  clearAuthor(tenantId: string, authorId: string): Promise<number>;
}

export const CategoryRepositoryToken: PortToken<CategoryRepository> = portToken('CategoryRepository');
export const ArticleRepositoryToken: PortToken<ArticleRepository> = portToken('ArticleRepository');
