/**
 * In-memory categories, keyed by (tenant, id). Besides the tenant's list order, each parent's
 * children (and the top-level ones) have an order of their own, as MongoDB's
 * `tenant_parent_created` index: a `parentId` page, and the "has it children?" check of a
 * category write, read that parent's children only, not every category of the tenant.
 */
import type { CategoryListFilter, CategoryRepository } from '../articles/articles.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import type { Category } from '../articles/category.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { rowOf, SnapshotTable, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryCategoryRepository implements CategoryRepository {
  readonly #categories = new SnapshotTable<Category>();
  /** Tenant → its categories in list order. */
  readonly #order = new KeysetIndex<RowSlot<Category>>();
  /** (tenant, parent id, or `TOP_LEVEL`) → its children in list order. */
  readonly #byParent = new KeysetIndex<RowSlot<Category>>();

  async insert(category: Category): Promise<void> {
    const key = tenantKey(category.tenantId, category.id);
    const slot = this.#categories.insertSlot(key, category);
    if (!slot) throw new Error(`duplicate category id ${category.id}`);
    this.#order.add(category.tenantId, category, slot);
    this.#byParent.add(parentGroup(category.tenantId, category.parentId), category, slot);
  }

  async update(category: Category, expected: Date): Promise<boolean> {
    const key = tenantKey(category.tenantId, category.id);
    const stored = this.#categories.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    this.#categories.update(key, (current) => ({ ...category, createdAt: current.createdAt }));
    if (category.parentId !== stored.parentId) {
      this.#byParent.remove(parentGroup(stored.tenantId, stored.parentId), stored);
      this.#byParent.add(parentGroup(stored.tenantId, category.parentId), stored, this.#categories.slot(key)!);
    }
    return true;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const category = this.#categories.get(key);
    if (!category) return false;
    this.#categories.delete(key);
    this.#order.remove(tenantId, category);
    this.#byParent.remove(parentGroup(tenantId, category.parentId), category);
    return true;
  }

  async list(tenantId: string, filter: CategoryListFilter, page: PageQuery): Promise<Category[]> {
    const { parentId } = filter;
    if (parentId === undefined) return collectPage(this.#order.itemsFor(tenantId, page), rowOf, page);
    return collectPage(this.#byParent.itemsFor(parentGroup(tenantId, parentId), page), rowOf, page);
  }

  async findById(tenantId: string, id: string): Promise<Category | null> {
    return this.#categories.get(tenantKey(tenantId, id)) ?? null;
  }

  async findByIds(tenantId: string, ids: readonly string[]): Promise<Category[]> {
    return [...new Set(ids)]
      .map((id) => this.#categories.get(tenantKey(tenantId, id)))
      .filter((category): category is Category => category !== undefined);
  }
}

/** The group of top-level categories: no category id is empty. */
const TOP_LEVEL = '';

const parentGroup = (tenantId: string, parentId: string | null): string => tenantKey(tenantId, parentId ?? TOP_LEVEL);
