import type { PageQuery } from '../shared/page-cursor.js';
import { portToken, type PortToken } from '../shared/port-token.js';
import type { Author } from './author.js';

export interface AuthorRepository {
  insert(author: Author): Promise<void>;
  /** The author with this (canonical) id in the tenant, or null. */
  findById(tenantId: string, id: string): Promise<Author | null>;
  /**
   * Deletes the author in one atomic step; true only for the call that deleted it. With
   * `expected`, only while its stored `updatedAt` is still that (compare-and-delete, `If-Match`).
   */
  delete(tenantId: string, id: string, expected?: Date): Promise<boolean>;
  /** Replaces the author's fields only if its stored `updatedAt` is still `expected` (one atomic step); false otherwise. */
  update(author: Author, expected: Date): Promise<boolean>;
  /** One keyset page of the tenant's authors (§6.1). */
  list(tenantId: string, page: PageQuery): Promise<Author[]>;
}

export const AuthorRepositoryToken: PortToken<AuthorRepository> = portToken('AuthorRepository');
