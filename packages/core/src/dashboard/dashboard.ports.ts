import { portToken, type PortToken } from '../shared/port-token.js';
import type { DashboardConfigRecord } from './dashboard-config.js';

export interface DashboardConfigRepository {
  /** Replaces the (tenant, user) record, creating it when absent, in one atomic step. */
  upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord>;
  /**
   * `upsert` only while the (tenant, user) record still shows what `expected` shows (its
   * `config`), or, with `expected` null, while there is still none; null when that no longer
   * holds, and nothing is written. The condition and the write are one atomic step, so an
   * `If-Match` checked against `expected` holds when the write lands (§6.3).
   */
  replaceIf(record: DashboardConfigRecord, expected: DashboardConfigRecord | null): Promise<DashboardConfigRecord | null>;
  find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null>;
}

export const DashboardConfigRepositoryToken: PortToken<DashboardConfigRepository> = portToken('DashboardConfigRepository');
