import { portToken, type PortToken } from '../shared/port-token.js';
import type { ApiKey, Tenant } from './tenant.js';

export interface TenantRepository {
  /** Stores a new tenant; false when one with that id already exists (nothing changes then). */
  insert(tenant: Tenant): Promise<boolean>;
  findById(id: string): Promise<Tenant | null>;
  list(): Promise<Tenant[]>;
  /** Sets the tenant's own monthly AI token limit (null: the default); false when no such tenant. */
  setAiTokenLimit(id: string, limit: number | null): Promise<boolean>;
  /** Replaces the tenant's admin e-mail addresses; false when no such tenant. */
  setAdminEmails(id: string, emails: readonly string[]): Promise<boolean>;
}

export interface ApiKeyRepository {
  /** Stores a key record; key hashes are unique. */
  insert(key: ApiKey): Promise<void>;
  findByHash(hash: string): Promise<ApiKey | null>;
  listByTenant(tenantId: string): Promise<ApiKey[]>;
  /** Marks the key revoked (idempotent); false when no such key. */
  revoke(id: string, at: Date): Promise<boolean>;
}

export const TenantRepositoryToken: PortToken<TenantRepository> = portToken('TenantRepository');
export const ApiKeyRepositoryToken: PortToken<ApiKeyRepository> = portToken('ApiKeyRepository');
