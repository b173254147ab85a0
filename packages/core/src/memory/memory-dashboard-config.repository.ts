import type { DashboardConfigRecord } from '../dashboard/dashboard-config.js';
import type { DashboardConfigRepository } from '../dashboard/dashboard.ports.js';
import { SnapshotTable } from './snapshot-table.js';

/** In-memory dashboard configurations, one per (tenant, user). */
export class MemoryDashboardConfigRepository implements DashboardConfigRepository {
  readonly #records = new SnapshotTable<DashboardConfigRecord>();

  async upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord> {
    return this.#records.put(keyOf(record.tenantId, record.userId), record);
  }

  async find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null> {
    return this.#records.get(keyOf(tenantId, userId)) ?? null;
  }
}

// Neither a tenant id nor a user id can hold a NUL, so the pair is unambiguous.
const keyOf = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;
