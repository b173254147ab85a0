import type { DashboardConfigRecord } from '../dashboard/dashboard-config.js';
import type { DashboardConfigRepository } from '../dashboard/dashboard.ports.js';
import { sameData } from '../shared/unchanged-parts.js';
import { SnapshotTable } from './snapshot-table.js';

/** In-memory dashboard configurations, one per (tenant, user). */
export class MemoryDashboardConfigRepository implements DashboardConfigRepository {
  readonly #records = new SnapshotTable<DashboardConfigRecord>();

  async upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord> {
    return this.#records.put(keyOf(record.tenantId, record.userId), record);
  }

  async replaceIf(record: DashboardConfigRecord, expected: DashboardConfigRecord | null): Promise<DashboardConfigRecord | null> {
    const key = keyOf(record.tenantId, record.userId);
    // Compared and written with no await in between: as atomic as the Mongo adapter's one command.
    const current = this.#records.get(key);
    const holds = current === undefined ? expected === null : expected !== null && (current === expected || sameData(current.config, expected.config));
    return holds ? this.#records.put(key, record) : null;
  }

  async find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null> {
    return this.#records.get(keyOf(tenantId, userId)) ?? null;
  }
}

// Neither a tenant id nor a user id can hold a NUL, so the pair is unambiguous.
const keyOf = (tenantId: string, userId: string) => `${tenantId}\u0000${userId}`;
