/** In-memory categories, keyed by (tenant, id). */
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

  async insert(category: Category): Promise<void> {
    const key = tenantKey(category.tenantId, category.id);
    const slot = this.#categories.insertSlot(key, category);
    if (!slot) throw new Error(`duplicate category id ${category.id}`);
    this.#order.add(category.tenantId, category, slot);
  }

  async update(category: Category, expected: Date): Promise<boolean> {
    const key = tenantKey(category.tenantId, category.id);
    const stored = this.#categories.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    this.#categories.update(key, (current) => ({ ...category, createdAt: current.createdAt }));
    return true;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    const key = tenantKey(tenantId, id);
    const category = this.#categories.get(key);
    if (!category) return false;
    this.#categories.delete(key);
    this.#order.remove(tenantId, category);
    return true;
  }

  async list(tenantId: string, filter: CategoryListFilter, page: PageQuery): Promise<Category[]> {
    const keep = (category: Category) => filter.parentId === undefined || category.parentId === filter.parentId;
    return collectPage(this.#order.itemsFor(tenantId, page), rowOf, page, keep);
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
