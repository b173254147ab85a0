/**
 * Articles on MongoDB, with their reaction totals stored on the document (one lookup to read,
 * one `$inc` to change: see mongo-reaction-totals.ts). Author, category and sub-category are
 * ObjectId references. Detaching a deleted author is one `updateMany` over the tenant's articles
 * of that author (index `tenant_author`), idempotent, so a retried deletion repairs a half-done one.
 */
import type { Article, ArticleListFilter, ArticleRepository, PageQuery, ReactionTotals, TargetTotals } from '@cms/core';
import type { Filter, ObjectId } from 'mongodb';
import { MongoReactionTotals } from '../reactions/mongo-reaction-totals.js';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { findPage } from '../storage/keyset-query.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, toObjectId } from '../storage/object-ids.js';

interface ArticleDocument {
  _id: ObjectId;
  tenantId: string;
  title: string;
  content: string;
  authorId: ObjectId | null;
  categoryId: ObjectId | null;
  subCategoryId: ObjectId | null;
  reactionsEnabled: boolean;
  likes: number;
  dislikes: number;
  createdAt: Date;
  updatedAt: Date;
}

export class MongoArticleRepository implements ArticleRepository {
  readonly #articles: MongoCollection<ArticleDocument>;
  readonly #totals: MongoReactionTotals;

  constructor(db: MongoDatabase) {
    this.#articles = db.collection<ArticleDocument>(Collections.articles);
    this.#totals = new MongoReactionTotals(db, Collections.articles);
  }

  async insert(article: Article): Promise<void> {
    try {
      await this.#articles.insertOne(toDocument(article));
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new Error(`duplicate article id ${article.id}`);
      throw error;
    }
  }

  async findById(tenantId: string, id: string): Promise<Article | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.#articles.findOne({ _id, tenantId });
    return document ? toArticle(document) : null;
  }

  /** One conditional `findOneAndUpdate` on the editable fields: the `updatedAt` read is part of the filter, `$inc`s of the totals are untouched. */
  async update(article: Article, expected: Date): Promise<boolean> {
    const { title, content, reactionsEnabled, updatedAt } = article;
    const updated = await this.#articles.findOneAndUpdate(
      { _id: toObjectId(article.id), tenantId: article.tenantId, updatedAt: expected },
      {
        $set: {
          title,
          content,
          authorId: toReference(article.authorId),
          categoryId: toReference(article.categoryId),
          subCategoryId: toReference(article.subCategoryId),
          reactionsEnabled,
          updatedAt,
        },
      },
    );
    return updated !== null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const _id = parseObjectId(id);
    return _id !== null && (await this.#articles.findOneAndDelete({ _id, tenantId })) !== null;
  }

  /** Two `updateMany`s, served by `tenant_category_created` and `tenant_subcategory_created`; idempotent. */
  async clearCategory(tenantId: string, categoryId: string): Promise<number> {
    const category = parseObjectId(categoryId);
    if (!category) return 0;
    const top = await this.#articles.updateMany({ tenantId, categoryId: category }, { $set: { categoryId: null, subCategoryId: null } });
    const sub = await this.#articles.updateMany({ tenantId, subCategoryId: category }, { $set: { subCategoryId: null } });
    return top.modifiedCount + sub.modifiedCount;
  }

  /** One or two `updateMany`s, served by `tenant_subcategory_created` and `tenant_category_created`; idempotent. */
  async refileCategory(tenantId: string, categoryId: string, parentId: string | null): Promise<number> {
    const category = parseObjectId(categoryId);
    if (!category) return 0;
    if (parentId === null) {
      const sub = await this.#articles.updateMany({ tenantId, subCategoryId: category }, { $set: { categoryId: category, subCategoryId: null } });
      return sub.modifiedCount;
    }
    const parent = toObjectId(parentId);
    const sub = await this.#articles.updateMany({ tenantId, subCategoryId: category, categoryId: { $ne: parent } }, { $set: { categoryId: parent } });
    const top = await this.#articles.updateMany({ tenantId, categoryId: category }, { $set: { categoryId: parent, subCategoryId: category } });
    return sub.modifiedCount + top.modifiedCount;
  }

  /**
   * Served by `tenant_created`, `tenant_author_created`, for a category by
   * `tenant_category_created` and `tenant_subcategory_created` (one branch of the `$or` each), and
   * for both by `tenant_author_category_created` and `tenant_author_subcategory_created`: each
   * branch names the author, so neither reads the author's articles filed elsewhere.
   */
  async list(tenantId: string, filter: ArticleListFilter, page: PageQuery): Promise<Article[]> {
    const query: Filter<ArticleDocument> = { tenantId };
    const authorId = filter.authorId === undefined ? undefined : parseObjectId(filter.authorId);
    const categoryId = filter.categoryId === undefined ? undefined : parseObjectId(filter.categoryId);
    if (authorId === null || categoryId === null) return [];
    if (categoryId === undefined) {
      if (authorId !== undefined) query.authorId = authorId;
    } else {
      const author = authorId === undefined ? {} : { authorId };
      query.$or = [{ ...author, categoryId }, { ...author, subCategoryId: categoryId }];
    }
    return (await findPage(this.#articles, query, page)).map(toArticle);
  }

  async clearAuthor(tenantId: string, authorId: string): Promise<number> {
    const author = parseObjectId(authorId);
    if (!author) return 0;
    const result = await this.#articles.updateMany({ tenantId, authorId: author }, { $set: { authorId: null } });
    return result.modifiedCount;
  }

  incrementTotals(tenantId: string, id: string, delta: ReactionTotals): Promise<ReactionTotals | null> {
    return this.#totals.incrementTotals(tenantId, id, delta);
  }

  listTotals(tenantId: string, afterId: string | null, limit: number): Promise<TargetTotals[]> {
    return this.#totals.listTotals(tenantId, afterId, limit);
  }
}

const toReference = (id: string | null): ObjectId | null => (id === null ? null : toObjectId(id));
const fromReference = (id: ObjectId | null | undefined): string | null => (id ? fromObjectId(id) : null);

function toDocument(article: Article): ArticleDocument {
  return {
    _id: toObjectId(article.id),
    tenantId: article.tenantId,
    title: article.title,
    content: article.content,
    authorId: toReference(article.authorId),
    categoryId: toReference(article.categoryId),
    subCategoryId: toReference(article.subCategoryId),
    reactionsEnabled: article.reactionsEnabled,
    likes: article.likes,
    dislikes: article.dislikes,
    createdAt: article.createdAt,
    updatedAt: article.updatedAt,
  };
}

function toArticle(document: ArticleDocument): Article {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    title: document.title,
    content: document.content,
    authorId: fromReference(document.authorId),
    categoryId: fromReference(document.categoryId),
    subCategoryId: fromReference(document.subCategoryId),
    reactionsEnabled: document.reactionsEnabled,
    likes: document.likes,
    dislikes: document.dislikes,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
