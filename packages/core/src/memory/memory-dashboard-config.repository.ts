import { frozenCopy } from './copy-record.js';
import type { DashboardConfigRecord } from '../dashboard/dashboard-config.js';
import type { DashboardConfigRepository } from '../dashboard/dashboard.ports.js';

/** In-memory dashboard configurations, one per (tenant, user). */
export class MemoryDashboardConfigRepository implements DashboardConfigRepository {
  readonly #records = new Map<string, DashboardConfigRecord>();

  async upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord> {
    const stored = frozenCopy(record);
    this.#records.set(keyOf(record.tenantId, record.userId), stored);
    return stored;
  }

  async find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null> {
    return this.#records.get(keyOf(tenantId, userId)) ?? null;
  }
}

// Neither a tenant id nor a user id can hold a NUL, so the pair is unambiguous.
const keyOf = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;
