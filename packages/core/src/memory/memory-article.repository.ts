/**
 * In-memory articles with their stored reaction totals. An index of each author's articles
 * (what Mongo's `tenant_author` index is to `updateMany`) keeps an author's deletion
 * proportional to that author's articles, not to every article in the store.
 */
import type { Article } from '../articles/article.js';
import type { ArticleRepository } from '../articles/articles.ports.js';
import { copyRecord } from './copy-record.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

type StoredArticle = { -readonly [K in keyof Article]: Article[K] };

export class MemoryArticleRepository extends MemoryReactionTotals<StoredArticle> implements ArticleRepository {
  readonly #articles: Map<string, StoredArticle>;
  /** (tenant, author id) → the articles of that author. Only `clearAuthor` changes an `authorId`. */
  readonly #byAuthor = new Map<string, Set<StoredArticle>>();

  constructor() {
    const articles = new Map<string, StoredArticle>();
    super(articles);
    this.#articles = articles;
  }

  async insert(article: Article): Promise<void> {
    const key = tenantKey(article.tenantId, article.id);
    if (this.#articles.has(key)) throw new Error(`duplicate article id ${article.id}`);
    const stored = copyRecord(article);
    this.#articles.set(key, stored);
    if (stored.authorId === null) return;
    const authorKey = tenantKey(stored.tenantId, stored.authorId);
    let articles = this.#byAuthor.get(authorKey);
    if (!articles) this.#byAuthor.set(authorKey, (articles = new Set()));
    articles.add(stored);
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    const article = this.#articles.get(tenantKey(tenantId, id));
    return article ? copyRecord(article) : null;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const authorKey = tenantKey(tenantId, authorId);
    const articles = this.#byAuthor.get(authorKey);
    if (!articles) return 0;
    this.#byAuthor.delete(authorKey);
    for (const article of articles) article.authorId = null;
    return articles.size;
  }
}
