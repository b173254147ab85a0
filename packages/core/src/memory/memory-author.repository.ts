/** In-memory authors, keyed by (tenant, id). */
import type { Author } from '../authors/author.js';
import type { AuthorRepository } from '../authors/authors.ports.js';
import { SnapshotTable } from './snapshot-table.js';
import { tenantKey } from './tenant-key.js';

export class MemoryAuthorRepository implements AuthorRepository {
  readonly #authors = new SnapshotTable<Author>();

  async insert(author: Author): Promise<void> {
    if (!this.#authors.insert(tenantKey(author.tenantId, author.id), author)) throw new Error(`duplicate author id ${author.id}`);
  }

  async findById(tenantId: string, id: string): Promise<Author | null> {
    return this.#authors.get(tenantKey(tenantId, id)) ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return this.#authors.delete(tenantKey(tenantId, id));
  }
}
