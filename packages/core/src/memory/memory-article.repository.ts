/** In-memory articles with their stored reaction totals. */
import type { Article } from '../articles/article.js';
import type { ArticleRepository } from '../articles/articles.ports.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

type StoredArticle = { -readonly [K in keyof Article]: Article[K] };

export class MemoryArticleRepository extends MemoryReactionTotals<StoredArticle> implements ArticleRepository {
  readonly #articles: Map<string, StoredArticle>;

  constructor() {
    const articles = new Map<string, StoredArticle>();
    super(articles);
    this.#articles = articles;
  }

  async insert(article: Article): Promise<void> {
    const key = tenantKey(article.tenantId, article.id);
    if (this.#articles.has(key)) throw new Error(`duplicate article id ${article.id}`);
    this.#articles.set(key, structuredClone(article));
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    const article = this.#articles.get(tenantKey(tenantId, id));
    return article ? structuredClone(article) : null;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    let cleared = 0;
    for (const article of this.#articles.values()) {
      if (article.tenantId !== tenantId || article.authorId !== authorId) continue;
      article.authorId = null;
      cleared += 1;
    }
    return cleared;
  }
}
