import { copyRecord } from './copy-record.js';
import type { DashboardConfigRecord } from '../dashboard/dashboard-config.js';
import type { DashboardConfigRepository } from '../dashboard/dashboard.ports.js';

/** In-memory dashboard configurations, one per (tenant, user). */
export class MemoryDashboardConfigRepository implements DashboardConfigRepository {
  readonly #records = new Map<string, DashboardConfigRecord>();

  async upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord> {
    this.#records.set(keyOf(record.tenantId, record.userId), copyRecord(record));
    return copyRecord(record);
  }

  async find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null> {
    const record = this.#records.get(keyOf(tenantId, userId));
    return record ? copyRecord(record) : null;
  }
}

// Neither a tenant id nor a user id can hold a NUL, so the pair is unambiguous.
const keyOf = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;
