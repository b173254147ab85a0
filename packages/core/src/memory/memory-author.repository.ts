/** In-memory authors, keyed by (tenant, id). */
import type { Author } from '../authors/author.js';
import type { AuthorRepository } from '../authors/authors.ports.js';
import type { PageQuery } from '../shared/page-cursor.js';
import { collectPage, KeysetIndex } from './keyset-index.js';
import { rowOf, SnapshotTable, stillAt, type RowSlot } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryAuthorRepository implements AuthorRepository {
  readonly #authors = new SnapshotTable<Author>();
  /** Tenant → its authors in list order. */
  readonly #order = new KeysetIndex<RowSlot<Author>>();

  async insert(author: Author): Promise<void> {
    const key = tenantKey(author.tenantId, author.id);
    const slot = this.#authors.insertSlot(key, author);
    if (!slot) throw new Error(`duplicate author id ${author.id}`);
    this.#order.add(author.tenantId, author, slot);
  }

  async findById(tenantId: string, id: string): Promise<Author | null> {
    return this.#authors.get(tenantKey(tenantId, id)) ?? null;
  }

  async delete(tenantId: string, id: string, expected?: Date): Promise<boolean> {
    const author = this.#authors.deleteIf(tenantKey(tenantId, id), (current) => stillAt(current, expected));
    if (!author) return false;
    this.#order.remove(tenantId, author);
    return true;
  }

  async update(author: Author, expected: Date): Promise<boolean> {
    const key = tenantKey(author.tenantId, author.id);
    const stored = this.#authors.get(key);
    if (!stored || stored.updatedAt.getTime() !== expected.getTime()) return false;
    this.#authors.update(key, (current) => ({ ...author, createdAt: current.createdAt }));
    return true;
  }

  async list(tenantId: string, page: PageQuery): Promise<Author[]> {
    return collectPage(this.#order.itemsFor(tenantId, page), rowOf, page);
  }
}
