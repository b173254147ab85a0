/** In-memory tenants and API keys: real adapters for the embedded store and for tests. */
import { frozenCopy, frozenDate } from './copy-record.js';
import type { ApiKeyRepository, TenantRepository } from '../tenancy/tenancy.ports.js';
import type { ApiKey, Tenant } from '../tenancy/tenant.js';

export class MemoryTenantRepository implements TenantRepository {
  readonly #tenants = new Map<string, Tenant>();

  async insert(tenant: Tenant): Promise<boolean> {
    if (this.#tenants.has(tenant.id)) return false;
    this.#tenants.set(tenant.id, frozenCopy(tenant));
    return true;
  }

  async findById(id: string): Promise<Tenant | null> {
    return this.#tenants.get(id) ?? null;
  }

  async list(): Promise<Tenant[]> {
    return [...this.#tenants.values()];
  }

  async setAiTokenLimit(id: string, limit: number | null): Promise<boolean> {
    const tenant = this.#tenants.get(id);
    if (!tenant) return false;
    this.#tenants.set(id, { ...tenant, aiTokenLimitMonthly: limit });
    return true;
  }

  async setAdminEmails(id: string, emails: readonly string[]): Promise<boolean> {
    const tenant = this.#tenants.get(id);
    if (!tenant) return false;
    this.#tenants.set(id, Object.freeze({ ...tenant, adminEmails: Object.freeze([...emails]) }));
    return true;
  }
}

export class MemoryApiKeyRepository implements ApiKeyRepository {
  readonly #byId = new Map<string, ApiKey>();
  readonly #idByHash = new Map<string, string>();

  async insert(key: ApiKey): Promise<void> {
    if (this.#idByHash.has(key.hash) || this.#byId.has(key.id)) throw new Error('duplicate API key');
    this.#byId.set(key.id, frozenCopy(key));
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
    if (key.revokedAt === null) this.#byId.set(id, Object.freeze({ ...key, revokedAt: frozenDate(at) }));
    return true;
  }
}
