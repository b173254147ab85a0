/** A tenant's AI token usage for a month (this month by default): what `cms-admin tenant ai-usage` shows. */
import type { Clock } from '../shared/clock.js';
import { validationError } from '../shared/domain-error.js';
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import { requireTenantId } from '../tenancy/tenant.js';
import { checkedQuotaPolicy, monthlyTokenLimitOf, tokenUsageOf, usageMonthOf, USAGE_MONTH_PATTERN, type AiTokenUsage } from './ai-quota.js';
import type { AiQuotaPolicy, AiUsageLedger } from './ai-usage.ports.js';

export interface AiUsageReport extends AiTokenUsage {
  /** `YYYY-MM`, UTC. */
  readonly month: string;
}

export class GetAiUsage {
  constructor(
    private readonly ledger: AiUsageLedger,
    private readonly tenants: TenantRepository,
    private readonly policy: AiQuotaPolicy,
    private readonly clock: Clock,
  ) {
    checkedQuotaPolicy(policy, 'GetAiUsage');
  }

  /**
   * Usage of `tenantId` in `month` (`YYYY-MM`; default: the current UTC month), against the
   * limit that applies now. Unknown tenant: `TENANT_NOT_FOUND`; a tenant id or month that is not
   * one (not a string included): validation error.
   */
  async execute(tenantId: string, month: string = usageMonthOf(this.clock.now())): Promise<AiUsageReport> {
    requireTenantId(tenantId);
    if (typeof month !== 'string' || !USAGE_MONTH_PATTERN.test(month)) throw validationError('month', 'must be a month such as 2026-01');
    const limit = await monthlyTokenLimitOf(this.tenants, this.policy, tenantId);
    const used = await this.ledger.get(tenantId, month);
    return { month, ...tokenUsageOf(used, limit) };
  }
}
