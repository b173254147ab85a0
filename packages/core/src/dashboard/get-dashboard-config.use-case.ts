import type { Caller } from '../shared/caller.js';
import { requiresUser } from '../shared/access.js';
import { requireUser } from '../shared/require-user.js';
import { SHARED_DEFAULT_CONFIG, type DashboardConfig } from './dashboard-config.js';
import type { DashboardConfigRepository } from './dashboard.ports.js';

/** The caller's stored layout, or the built-in default (one shared frozen value). A read creates nothing. */
export class GetDashboardConfig {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresUser('MISSING_USER_ID');

  constructor(private readonly configs: DashboardConfigRepository) {}

  async execute(caller: Caller): Promise<DashboardConfig> {
    const user = requireUser(caller, GetDashboardConfig.access.missing);
    const stored = await this.configs.find(caller.tenantId, user.id);
    return stored?.config ?? SHARED_DEFAULT_CONFIG;
  }
}
