/** In-memory tenants and API keys: real adapters for the embedded store and for tests. */
import type { ApiKeyRepository, TenantRepository } from '../tenancy/tenancy.ports.js';
import type { ApiKey, Tenant } from '../tenancy/tenant.js';
import { SnapshotTable } from './snapshot-table.js';

export class MemoryTenantRepository implements TenantRepository {
  readonly #tenants = new SnapshotTable<Tenant>();

  async insert(tenant: Tenant): Promise<boolean> {
    return this.#tenants.insert(tenant.id, tenant) !== undefined;
  }

  async findById(id: string): Promise<Tenant | null> {
    return this.#tenants.get(id) ?? null;
  }

  async list(): Promise<Tenant[]> {
    return [...this.#tenants.values()];
  }

  async setAiTokenLimit(id: string, limit: number | null): Promise<boolean> {
    return this.#tenants.update(id, (tenant) => ({ ...tenant, aiTokenLimitMonthly: limit })) !== undefined;
  }

  async setAdminEmails(id: string, emails: readonly string[]): Promise<boolean> {
    return this.#tenants.update(id, (tenant) => ({ ...tenant, adminEmails: emails })) !== undefined;
  }
}

export class MemoryApiKeyRepository implements ApiKeyRepository {
  readonly #byId = new SnapshotTable<ApiKey>();
  readonly #idByHash = new Map<string, string>();

  async insert(key: ApiKey): Promise<void> {
    if (this.#idByHash.has(key.hash) || !this.#byId.insert(key.id, key)) throw new Error('duplicate API key');
    this.#idByHash.set(key.hash, key.id);
  }

  async findByHash(hash: string): Promise<ApiKey | null> {
    const id = this.#idByHash.get(hash);
    const key = id === undefined ? undefined : this.#byId.get(id);
    return key ?? null;
  }

  async listByTenant(tenantId: string): Promise<ApiKey[]> {
    return [...this.#byId.values()]
      .filter((key) => key.tenantId === tenantId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    const key = this.#byId.get(id);
    if (!key) return false;
    if (key.revokedAt === null) this.#byId.update(id, (current) => ({ ...current, revokedAt: at }));
    return true;
  }
}
