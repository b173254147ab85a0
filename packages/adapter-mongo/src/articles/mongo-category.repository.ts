/**
 * Categories on MongoDB, read by `_id` within the tenant; `parentId` (one level of nesting) is an
 * ObjectId reference. `findByIds` is one `$in` query, so checking an article's category and
 * sub-category is one read.
 */
import type { Category, CategoryListFilter, CategoryRepository, PageQuery } from '@cms/core';
import type { Filter, ObjectId } from 'mongodb';
import { isDuplicateKeyError } from '../storage/duplicate-key.js';
import { findPage } from '../storage/keyset-query.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';
import { fromObjectId, parseObjectId, parseObjectIds, toObjectId } from '../storage/object-ids.js';

interface CategoryDocument {
  _id: ObjectId;
  tenantId: string;
  name: string;
  parentId: ObjectId | null;
  reactionsEnabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export class MongoCategoryRepository implements CategoryRepository {
  readonly #categories: MongoCollection<CategoryDocument>;

  constructor(db: MongoDatabase) {
    this.#categories = db.collection<CategoryDocument>(Collections.categories);
  }

  async insert(category: Category): Promise<void> {
    try {
      await this.#categories.insertOne(toDocument(category));
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new Error(`duplicate category id ${category.id}`);
      throw error;
    }
  }

  async findById(tenantId: string, id: string): Promise<Category | null> {
    const _id = parseObjectId(id);
    if (!_id) return null;
    const document = await this.#categories.findOne({ _id, tenantId });
    return document ? toCategory(document) : null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<Category[]> {
    const wanted = parseObjectIds(ids);
    if (wanted.length === 0) return [];
    const documents = await this.#categories.find({ tenantId, _id: { $in: wanted } }).toArray();
    return documents.map(toCategory);
  }

  /** One conditional `findOneAndUpdate`: the `updatedAt` read is part of the filter. */
  async update(category: Category, expected: Date): Promise<boolean> {
    const { name, reactionsEnabled, updatedAt } = category;
    const parentId = category.parentId === null ? null : toObjectId(category.parentId);
    const updated = await this.#categories.findOneAndUpdate(
      { _id: toObjectId(category.id), tenantId: category.tenantId, updatedAt: expected },
      { $set: { name, parentId, reactionsEnabled, updatedAt } },
    );
    return updated !== null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const _id = parseObjectId(id);
    return _id !== null && (await this.#categories.findOneAndDelete({ _id, tenantId })) !== null;
  }

  /** Served by `tenant_created`, or `tenant_parent_created` with a `parentId` filter (null: top level). */
  async list(tenantId: string, filter: CategoryListFilter, page: PageQuery): Promise<Category[]> {
    const query: Filter<CategoryDocument> = { tenantId };
    if (filter.parentId !== undefined) {
      const parentId = filter.parentId === null ? null : parseObjectId(filter.parentId);
      if (filter.parentId !== null && parentId === null) return [];
      query.parentId = parentId;
    }
    return (await findPage(this.#categories, query, page)).map(toCategory);
  }
}

function toDocument(category: Category): CategoryDocument {
  return {
    _id: toObjectId(category.id),
    tenantId: category.tenantId,
    name: category.name,
    parentId: category.parentId === null ? null : toObjectId(category.parentId),
    reactionsEnabled: category.reactionsEnabled,
    createdAt: category.createdAt,
    updatedAt: category.updatedAt,
  };
}

function toCategory(document: CategoryDocument): Category {
  return {
    id: fromObjectId(document._id),
    tenantId: document.tenantId,
    name: document.name,
    parentId: document.parentId ? fromObjectId(document.parentId) : null,
    reactionsEnabled: document.reactionsEnabled,
    createdAt: document.createdAt,
    updatedAt: document.updatedAt,
  };
}
