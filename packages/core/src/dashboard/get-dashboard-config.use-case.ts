import type { Caller } from '../shared/caller.js';
import { requireUser } from '../shared/require-user.js';
import { defaultDashboardConfig, type DashboardConfig } from './dashboard-config.js';
import type { DashboardConfigRepository } from './dashboard.ports.js';

/** The caller's stored layout, or the built-in default. A read creates nothing. */
export class GetDashboardConfig {
  constructor(private readonly configs: DashboardConfigRepository) {}

  async execute(caller: Caller): Promise<DashboardConfig> {
    const user = requireUser(caller);
    const stored = await this.configs.find(caller.tenantId, user.id);
    return stored?.config ?? defaultDashboardConfig();
  }
}
