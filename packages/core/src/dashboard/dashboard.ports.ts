import { portToken, type PortToken } from '../shared/port-token.js';
import type { DashboardConfigRecord } from './dashboard-config.js';

export interface DashboardConfigRepository {
  /** Replaces the (tenant, user) record, creating it when absent, in one atomic step. */
  upsert(record: DashboardConfigRecord): Promise<DashboardConfigRecord>;
  find(tenantId: string, userId: string): Promise<DashboardConfigRecord | null>;
}

export const DashboardConfigRepositoryToken: PortToken<DashboardConfigRepository> = portToken('DashboardConfigRepository');
