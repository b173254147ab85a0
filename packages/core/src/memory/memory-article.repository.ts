/**
 * In-memory articles with their stored reaction totals. An index of each author's articles
 * (what Mongo's `tenant_author` index is to `updateMany`) keeps an author's deletion
 * proportional to that author's articles, not to every article in the store.
 */
import type { Article } from '../articles/article.js';
import type { ArticleRepository } from '../articles/articles.ports.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

export class MemoryArticleRepository extends MemoryReactionTotals<Article> implements ArticleRepository {
  /** (tenant, author id) → the ids of that author's articles. Only `clearAuthor` changes an `authorId`. */
  readonly #byAuthor = new Map<string, Set<string>>();

  async insert(article: Article): Promise<void> {
    const stored = this.records.insert(tenantKey(article.tenantId, article.id), article);
    if (!stored) throw new Error(`duplicate article id ${article.id}`);
    if (stored.authorId === null) return;
    const authorKey = tenantKey(stored.tenantId, stored.authorId);
    let articles = this.#byAuthor.get(authorKey);
    if (!articles) this.#byAuthor.set(authorKey, (articles = new Set()));
    articles.add(stored.id);
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    return this.records.get(tenantKey(tenantId, id)) ?? null;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const authorKey = tenantKey(tenantId, authorId);
    const ids = this.#byAuthor.get(authorKey);
    if (!ids) return 0;
    this.#byAuthor.delete(authorKey);
    for (const id of ids) this.records.update(tenantKey(tenantId, id), (article) => ({ ...article, authorId: null }));
    return ids.size;
  }
}
