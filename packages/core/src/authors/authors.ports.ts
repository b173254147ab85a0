import { portToken, type PortToken } from '../shared/port-token.js';
import type { Author } from './author.js';

export interface AuthorRepository {
  insert(author: Author): Promise<void>;
  /** The author with this (canonical) id in the tenant, or null. */
  findById(tenantId: string, id: string): Promise<Author | null>;
  /** Deletes the author in one atomic step; true only for the call that deleted it. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

export const AuthorRepositoryToken: PortToken<AuthorRepository> = portToken('AuthorRepository');
