import type { Clock } from '../shared/clock.js';
import type { Caller } from '../shared/caller.js';
import { requiresUser } from '../shared/access.js';
import { requireUser } from '../shared/require-user.js';
import { type DashboardConfig } from './dashboard-config.js';
import type { DashboardConfigRepository } from './dashboard.ports.js';
import { normalizeDashboardConfig } from './normalize-dashboard-config.js';
import { requireTenantId } from '../tenancy/tenant.js';

/**
 * A dashboard layout as a caller sends it: every property optional, JSON `null` meaning absent;
 * unknown enum values fall back to defaults and unknown properties are dropped (the normalizer).
 */
export interface DashboardConfigInput {
  readonly version?: number | null;
  readonly templateId?: string | null;
  readonly slots?: ReadonlyArray<{
    readonly id?: string | null;
    readonly type?: unknown;
    readonly enabled?: boolean | null;
    readonly span?: unknown;
    readonly settings?: { readonly range?: unknown } | null;
  }> | null;
}

/** Upserts the caller's dashboard layout after normalizing it; returns what was stored. */
export class SaveDashboardConfig {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresUser('MISSING_USER_ID');

  constructor(
    private readonly configs: DashboardConfigRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: DashboardConfigInput | null | undefined): Promise<DashboardConfig> {
    const user = requireUser(caller, SaveDashboardConfig.access.missing);
    requireTenantId(caller.tenantId);
    const config = normalizeDashboardConfig(input);
    const stored = await this.configs.upsert({
      tenantId: caller.tenantId,
      userId: user.id,
      config,
      updatedBy: user.id,
      updatedAt: this.clock.now(),
    });
    return stored.config;
  }
}
