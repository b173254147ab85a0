/**
 * In-memory articles with their stored reaction totals. An index of each author's articles
 * (what Mongo's `tenant_author` index is to `updateMany`) keeps an author's deletion
 * proportional to that author's articles, not to every article in the store.
 */
import { filedUnder, type Article } from '../articles/article.js';
import type { ArticleListFilter, ArticleRepository } from '../articles/articles.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { rowOf, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryArticleRepository extends MemoryReactionTotals<Article> implements ArticleRepository {
  /** (tenant, author id) → the ids of that author's articles. */
  readonly #byAuthor = new Map<string, Set<string>>();
  /** Tenant → its articles in list order. */
  readonly #order = new KeysetIndex<RowSlot<Article>>();

  async insert(article: Article): Promise<void> {
    const key = tenantKey(article.tenantId, article.id);
    const slot = this.records.insertSlot(key, article);
    if (!slot) throw new Error(`duplicate article id ${article.id}`);
    this.#order.add(article.tenantId, article, slot);
    if (article.authorId !== null) this.#authorArticles(article.tenantId, article.authorId).add(article.id);
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    return this.records.get(tenantKey(tenantId, id)) ?? null;
  }

  async list(tenantId: string, filter: ArticleListFilter, page: PageQuery): Promise<Article[]> {
    const { authorId, categoryId } = filter;
    const keep = (article: Article) =>
      (authorId === undefined || article.authorId === authorId) &&
      (categoryId === undefined || article.categoryId === categoryId || article.subCategoryId === categoryId);
    return collectPage(this.#order.itemsFor(tenantId, page), rowOf, page, keep);
  }

  async update(article: Article, expected: Date): Promise<boolean> {
    const key = tenantKey(article.tenantId, article.id);
    const stored = this.records.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    const { title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt } = article;
    this.records.update(key, (current) => ({ ...current, title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt }));
    if (stored.authorId !== authorId) {
      if (stored.authorId !== null) this.#byAuthor.get(tenantKey(stored.tenantId, stored.authorId))?.delete(stored.id);
      if (authorId !== null) this.#authorArticles(stored.tenantId, authorId).add(stored.id);
    }
    return true;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const article = this.records.get(key);
    if (!article) return false;
    this.records.delete(key);
    this.#order.remove(tenantId, article);
    if (article.authorId !== null) this.#byAuthor.get(tenantKey(tenantId, article.authorId))?.delete(id);
    return true;
  }

  /** A scan of the tenant's articles: categories are deleted rarely (MongoDB uses its category indexes). */
  async clearCategory(tenantId: string, categoryId: string): Promise<number> {
    let changed = 0;
    for (const { key, row: article } of this.#order.oldestFirst(tenantId, null)) {
      if (!article || (article.categoryId !== categoryId && article.subCategoryId !== categoryId)) continue;
      this.records.update(key, (current) => ({
        ...current,
        categoryId: current.categoryId === categoryId ? null : current.categoryId,
        subCategoryId: current.categoryId === categoryId || current.subCategoryId === categoryId ? null : current.subCategoryId,
      }));
      changed += 1;
    }
    return changed;
  }

  /** A scan of the tenant's articles, as `clearCategory`: categories move rarely. */
  async refileCategory(tenantId: string, categoryId: string, parentId: string | null): Promise<number> {
    let changed = 0;
    for (const { key, row: article } of this.#order.oldestFirst(tenantId, null)) {
      if (!article) continue;
      const filed = refiled(article, categoryId, parentId);
      if (filed === null) continue;
      this.records.update(key, (current) => ({ ...current, ...filed }));
      changed += 1;
    }
    return changed;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const authorKey = tenantKey(tenantId, authorId);
    const ids = this.#byAuthor.get(authorKey);
    if (!ids) return 0;
    this.#byAuthor.delete(authorKey);
    for (const id of ids) this.records.update(tenantKey(tenantId, id), (article) => ({ ...article, authorId: null }));
    return ids.size;
  }

  #authorArticles(tenantId: string, authorId: string): Set<string> {
    const authorKey = tenantKey(tenantId, authorId);
    let articles = this.#byAuthor.get(authorKey);
    if (!articles) this.#byAuthor.set(authorKey, (articles = new Set()));
    return articles;
  }
}

/** Where `article` is filed once `categoryId` has the parent `parentId`; null when that changes nothing. */
function refiled(article: Article, categoryId: string, parentId: string | null): Pick<Article, 'categoryId' | 'subCategoryId'> | null {
  if (article.subCategoryId === categoryId) {
    const filed = filedUnder(categoryId, parentId);
    return filed.categoryId === article.categoryId && filed.subCategoryId === article.subCategoryId ? null : filed;
  }
  if (article.categoryId === categoryId && parentId !== null) return filedUnder(categoryId, parentId);
  return null;
}
