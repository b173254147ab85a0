/** In-memory categories, keyed by (tenant, id). */
import type { CategoryRepository } from '../articles/articles.ports.js';
import type { Category } from '../articles/category.js';
import { SnapshotTable } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryCategoryRepository implements CategoryRepository {
  readonly #categories = new SnapshotTable<Category>();

  async insert(category: Category): Promise<void> {
    if (!this.#categories.insert(tenantKey(category.tenantId, category.id), category)) throw new Error(`duplicate category id ${category.id}`);
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
