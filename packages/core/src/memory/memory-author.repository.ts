/** In-memory authors, keyed by (tenant, id). */
import type { Author } from '../authors/author.js';
import type { AuthorRepository } from '../authors/authors.ports.js';
import { frozenCopy } from './copy-record.js';
import { tenantKey } from './tenant-key.js';

export class MemoryAuthorRepository implements AuthorRepository {
  readonly #authors = new Map<string, Author>();

  async insert(author: Author): Promise<void> {
    const key = tenantKey(author.tenantId, author.id);
    if (this.#authors.has(key)) throw new Error(`duplicate author id ${author.id}`);
    this.#authors.set(key, frozenCopy(author));
  }

  async findById(tenantId: string, id: string): Promise<Author | null> {
    return this.#authors.get(tenantKey(tenantId, id)) ?? null;
  }

  async delete(tenantId: string, id: string): Promise<boolean> {
    return this.#authors.delete(tenantKey(tenantId, id));
  }
}
