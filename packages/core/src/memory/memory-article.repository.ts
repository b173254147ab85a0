/**
 * In-memory articles with their stored reaction totals. An index of each author's articles
 * (what Mongo's `tenant_author` index is to `updateMany`) keeps an author's deletion
 * proportional to that author's articles, not to every article in the store.
 */
import type { Article } from '../articles/article.js';
import type { ArticleListFilter, ArticleRepository } from '../articles/articles.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { frozenCopy } from './copy-record.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { tenantKey } from './tenant-key.js';

export class MemoryArticleRepository extends MemoryReactionTotals<Article> implements ArticleRepository {
  readonly #articles: Map<string, Article>;
  /** (tenant, author id) → the ids of that author's articles. Only `clearAuthor` changes an `authorId`. */
  readonly #byAuthor = new Map<string, Set<string>>();
  /** Tenant → its articles in list order. */
  readonly #order = new KeysetIndex();

  constructor() {
    const articles = new Map<string, Article>();
    super(articles);
    this.#articles = articles;
  }

  async insert(article: Article): Promise<void> {
    const key = tenantKey(article.tenantId, article.id);
    if (this.#articles.has(key)) throw new Error(`duplicate article id ${article.id}`);
    const stored = frozenCopy(article);
    this.#articles.set(key, stored);
    this.#order.add(stored.tenantId, stored, key);
    if (stored.authorId !== null) this.#authorArticles(stored.tenantId, stored.authorId).add(stored.id);
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    return this.#articles.get(tenantKey(tenantId, id)) ?? null;
  }

  async list(tenantId: string, filter: ArticleListFilter, page: PageQuery): Promise<Article[]> {
    const { authorId, categoryId } = filter;
    const keep = (article: Article) =>
      (authorId === undefined || article.authorId === authorId) &&
      (categoryId === undefined || article.categoryId === categoryId || article.subCategoryId === categoryId);
    return collectPage(this.#order.keysFor(tenantId, page), (key) => this.#articles.get(key), page, keep);
  }

  async update(article: Article, expected: Date): Promise<boolean> {
    const key = tenantKey(article.tenantId, article.id);
    const stored = this.#articles.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    const { title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt } = article;
    this.#articles.set(key, frozenCopy({ ...stored, title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt }));
    if (stored.authorId !== authorId) {
      if (stored.authorId !== null) this.#byAuthor.get(tenantKey(stored.tenantId, stored.authorId))?.delete(stored.id);
      if (authorId !== null) this.#authorArticles(stored.tenantId, authorId).add(stored.id);
    }
    return true;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const article = this.#articles.get(key);
    if (!article) return false;
    this.#articles.delete(key);
    this.#order.remove(tenantId, article);
    if (article.authorId !== null) this.#byAuthor.get(tenantKey(tenantId, article.authorId))?.delete(id);
    return true;
  }

  /** A scan of the tenant's articles: categories are deleted rarely (MongoDB uses its category indexes). */
  async clearCategory(tenantId: string, categoryId: string): Promise<number> {
    let changed = 0;
    for (const key of this.#order.oldestFirst(tenantId, null)) {
      const article = this.#articles.get(key);
      if (!article || (article.categoryId !== categoryId && article.subCategoryId !== categoryId)) continue;
      const categoryIdAfter = article.categoryId === categoryId ? null : article.categoryId;
      const subCategoryId = article.subCategoryId === categoryId ? null : article.subCategoryId;
      this.#articles.set(key, Object.freeze({ ...article, categoryId: categoryIdAfter, subCategoryId }));
      changed += 1;
    }
    return changed;
  }

  #authorArticles(tenantId: string, authorId: string): Set<string> {
    const authorKey = tenantKey(tenantId, authorId);
    let articles = this.#byAuthor.get(authorKey);
    if (!articles) this.#byAuthor.set(authorKey, (articles = new Set()));
    return articles;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const authorKey = tenantKey(tenantId, authorId);
    const ids = this.#byAuthor.get(authorKey);
    if (!ids) return 0;
    this.#byAuthor.delete(authorKey);
    for (const id of ids) {
      const key = tenantKey(tenantId, id);
      const article = this.#articles.get(key);
      if (article) this.#articles.set(key, Object.freeze({ ...article, authorId: null }));
    }
    return ids.size;
  }
}
