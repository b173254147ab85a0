/**
 * In-memory articles with their stored reaction totals. Besides the tenant's list order, each
 * author's articles and each category's (as category or sub-category) have an order of their
 * own, as MongoDB's `tenant_author_created` and category indexes: a list filtered by author or
 * category reads only the articles it may answer (both given: the order of the pair, as MongoDB's
 * author-and-category indexes), an author's deletion is proportional to that
 * author's articles, and a category's delete or move to its own articles, not to every article
 * in the store.
 */
import { filedUnder, type Article } from '../articles/article.js';
import type { ArticleListFilter, ArticleRepository } from '../articles/articles.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { MemoryReactionTotals } from './memory-reaction-totals.js';
import { rowOf, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryArticleRepository extends MemoryReactionTotals<Article> implements ArticleRepository {
  /** Tenant → its articles in list order. */
  readonly #order = new KeysetIndex<RowSlot<Article>>();
  /** (tenant, author id) → that author's articles in list order. */
  readonly #byAuthor = new KeysetIndex<RowSlot<Article>>();
  /** (tenant, category id) → the articles filed under it, as category or sub-category, in list order. */
  readonly #byCategory = new KeysetIndex<RowSlot<Article>>();
  /** (tenant, author id, category id) → that author's articles filed under that category, in list order. */
  readonly #byAuthorAndCategory = new KeysetIndex<RowSlot<Article>>();

  async insert(article: Article): Promise<void> {
    const key = tenantKey(article.tenantId, article.id);
    const slot = this.records.insertSlot(key, article);
    if (!slot) throw new Error(`duplicate article id ${article.id}`);
    this.#order.add(article.tenantId, article, slot);
    this.#refile(slot, undefined, article);
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    return this.records.get(tenantKey(tenantId, id)) ?? null;
  }

  async list(tenantId: string, filter: ArticleListFilter, page: PageQuery): Promise<Article[]> {
    const { authorId, categoryId } = filter;
    if (authorId === undefined && categoryId === undefined) return collectPage(this.#order.itemsFor(tenantId, page), rowOf, page);
    const items =
      categoryId === undefined
        ? this.#byAuthor.itemsFor(tenantKey(tenantId, authorId!), page)
        : authorId === undefined
          ? this.#byCategory.itemsFor(tenantKey(tenantId, categoryId), page)
          : this.#byAuthorAndCategory.itemsFor(tenantKey(tenantId, pairKey(authorId, categoryId)), page);
    return collectPage(items, rowOf, page);
  }

  async update(article: Article, expected: Date): Promise<boolean> {
    const key = tenantKey(article.tenantId, article.id);
    const stored = this.records.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    const { title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt } = article;
    this.#change(key, stored, (current) => ({ ...current, title, content, authorId, categoryId, subCategoryId, reactionsEnabled, updatedAt }));
    return true;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const article = this.records.get(key);
    if (!article) return false;
    this.records.delete(key);
    this.#order.remove(tenantId, article);
    this.#refile(undefined, article, undefined);
    return true;
  }

  async clearCategory(tenantId: string, categoryId: string): Promise<number> {
    const slots = this.#byCategory.take(tenantKey(tenantId, categoryId));
    for (const { key, row } of slots) {
      this.#change(key, row, (current) => ({
        ...current,
        categoryId: current.categoryId === categoryId ? null : current.categoryId,
        subCategoryId: current.categoryId === categoryId || current.subCategoryId === categoryId ? null : current.subCategoryId,
      }));
    }
    return slots.length;
  }

  async refileCategory(tenantId: string, categoryId: string, parentId: string | null): Promise<number> {
    let changed = 0;
    // A copy of the group: refiling moves articles out of it.
    for (const { key, row: article } of [...this.#byCategory.oldestFirst(tenantKey(tenantId, categoryId), null)]) {
      const filed = article && refiled(article, categoryId, parentId);
      if (!filed) continue;
      this.#change(key, article, (current) => ({ ...current, ...filed }));
      changed += 1;
    }
    return changed;
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const slots = this.#byAuthor.take(tenantKey(tenantId, authorId));
    for (const { key, row: article } of slots) {
      if (article) for (const categoryId of categoriesOf(article)) this.#byAuthorAndCategory.remove(tenantKey(tenantId, pairKey(authorId, categoryId)), article);
      this.records.update(key, (current) => ({ ...current, authorId: null }));
    }
    return slots.length;
  }

  /** `records.update` of the article stored as `before`, its places in the author and category orders following it. */
  #change(key: string, before: Article | undefined, change: (current: Article) => Article): void {
    const after = this.records.update(key, change);
    if (!before || !after) return;
    if (before.authorId !== after.authorId || before.categoryId !== after.categoryId || before.subCategoryId !== after.subCategoryId) {
      this.#refile(this.records.slot(key)!, before, after);
    }
  }

  /**
   * Moves an article's entries in the author and category orders from where `before` put them
   * to where `after` does (`before` undefined: an insert; `after` undefined: a delete).
   */
  #refile(slot: RowSlot<Article> | undefined, before: Article | undefined, after: Article | undefined): void {
    const position = (after ?? before)!;
    move(this.#byAuthor, position, slot, authorsOf(before), authorsOf(after));
    move(this.#byCategory, position, slot, categoriesOf(before), categoriesOf(after));
    move(this.#byAuthorAndCategory, position, slot, pairsOf(before), pairsOf(after));
  }
}

/** Takes the article at `position` out of the groups of `was` it leaves and into those of `is` it joins. */
function move(index: KeysetIndex<RowSlot<Article>>, position: Article, slot: RowSlot<Article> | undefined, was: readonly string[], is: readonly string[]): void {
  for (const id of was) if (!is.includes(id)) index.remove(tenantKey(position.tenantId, id), position);
  for (const id of is) if (!was.includes(id)) index.add(tenantKey(position.tenantId, id), position, slot!);
}

const NONE: readonly string[] = [];

const authorsOf = (article: Article | undefined): readonly string[] => (article?.authorId ? [article.authorId] : NONE);

/** The categories an article is filed under, each once. */
function categoriesOf(article: Article | undefined): readonly string[] {
  if (!article) return NONE;
  const { categoryId, subCategoryId } = article;
  if (categoryId === null) return subCategoryId === null ? NONE : [subCategoryId];
  return subCategoryId === null || subCategoryId === categoryId ? [categoryId] : [categoryId, subCategoryId];
}

/** The (author, category) pairs an article is filed under: none without an author. */
function pairsOf(article: Article | undefined): readonly string[] {
  const authorId = article?.authorId;
  return authorId ? categoriesOf(article).map((categoryId) => pairKey(authorId, categoryId)) : NONE;
}

const pairKey = (authorId: string, categoryId: string): string => `${authorId}\u0000${categoryId}`;

/** Where `article` is filed once `categoryId` has the parent `parentId`; null when that changes nothing. */
function refiled(article: Article, categoryId: string, parentId: string | null): Pick<Article, 'categoryId' | 'subCategoryId'> | null {
  if (article.subCategoryId === categoryId) {
    const filed = filedUnder(categoryId, parentId);
    return filed.categoryId === article.categoryId && filed.subCategoryId === article.subCategoryId ? null : filed;
  }
  if (article.categoryId === categoryId && parentId !== null) return filedUnder(categoryId, parentId);
  return null;
}
