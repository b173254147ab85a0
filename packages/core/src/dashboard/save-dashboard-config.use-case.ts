import type { Clock } from '../shared/clock.js';
import type { Caller } from '../shared/caller.js';
import { requiresUser } from '../shared/access.js';
import type { UpdateRequest } from '../shared/conditional-update.js';
import { checkIfMatch, namesVersion, preconditionFailed } from '../shared/entity-tag.js';
import { requireUser } from '../shared/require-user.js';
import { SHARED_DEFAULT_CONFIG, type DashboardConfig, type DashboardConfigRecord } from './dashboard-config.js';
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

/** A save: the layout as sent (absent or null: the default) and the request's `If-Match`. */
export interface SaveDashboardConfigInput extends UpdateRequest {
  readonly config?: DashboardConfigInput | null | undefined;
}

/**
 * Upserts the caller's dashboard layout after normalizing it; returns what was stored. With an
 * `If-Match` naming tags, the layout the caller sees now (the stored one, else the default) must
 * carry one of them, checked before the body (the order of §6.3), and the write lands only while
 * it still does (docs/decisions/0814-dashboard-and-template-entity-tags.md).
 */
export class SaveDashboardConfig {
  /** Who may call: the one declaration the HTTP routes, OpenAPI and docs/permissions.md follow. */
  static readonly access = requiresUser('MISSING_USER_ID');

  constructor(
    private readonly configs: DashboardConfigRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: SaveDashboardConfigInput): Promise<DashboardConfig> {
    const user = requireUser(caller, SaveDashboardConfig.access.missing);
    requireTenantId(caller.tenantId);
    // Without a named tag (absent, or `*`: a layout always has a representation) nothing is read.
    const expected = namesVersion(input.ifMatch) ? await this.#checked(caller.tenantId, user.id, input.ifMatch) : undefined;
    input.checkShape?.(input.config);
    const record: DashboardConfigRecord = {
      tenantId: caller.tenantId,
      userId: user.id,
      config: normalizeDashboardConfig(input.config),
      updatedBy: user.id,
      updatedAt: this.clock.now(),
    };
    if (expected === undefined) return (await this.configs.upsert(record)).config;
    const stored = await this.configs.replaceIf(record, expected);
    if (!stored) throw preconditionFailed();
    return stored.config;
  }

  /** The stored record (null: none, the default shows) once `If-Match` holds for what it shows. */
  async #checked(tenantId: string, userId: string, ifMatch: string): Promise<DashboardConfigRecord | null> {
    const current = await this.configs.find(tenantId, userId);
    checkIfMatch(ifMatch, () => current?.config ?? SHARED_DEFAULT_CONFIG);
    return current;
  }
}
