/**
 * The monthly token quota: which month a moment belongs to, which limit applies to a tenant,
 * and the usage figures every answer reports.
 */
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import type { TenantRepository } from '../tenancy/tenancy.ports.js';
import type { AiQuotaPolicy } from './ai-usage.ports.js';

export const USAGE_MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/**
 * The arguments every `AiUsageLedger` takes, checked alike by each (a programming error, not a
 * caller's: the use cases pass a month of `usageMonthOf` and a provider's whole token count).
 */
export function checkLedgerArguments(month: string, tokens = 0): void {
  if (!USAGE_MONTH_PATTERN.test(month)) throw new Error(`month must be YYYY-MM (got ${month})`);
  if (!Number.isSafeInteger(tokens) || tokens < 0) throw new Error(`tokens must be a whole number ≥ 0 (got ${tokens})`);
}

/** Tokens used, remaining and the limit, for the month in question. */
export interface AiTokenUsage {
  readonly used: number;
  /** max(0, limit − used): a month can overshoot its limit (the check runs before the call). */
  readonly remaining: number;
  readonly limit: number;
}

/** The calendar month (UTC) of a moment, as `YYYY-MM` (years 0-9999, as the ledger's pattern takes). */
export function usageMonthOf(at: Date): string {
  const month = at.getUTCMonth() + 1;
  return `${String(at.getUTCFullYear()).padStart(4, '0')}-${month < 10 ? '0' : ''}${month}`;
}

/** The first moment of the calendar month (UTC) after the one `at` is in: when a spent quota lifts. */
export function nextMonthStart(at: Date): Date {
  const start = new Date(0);
  start.setUTCFullYear(at.getUTCFullYear(), at.getUTCMonth() + 1, 1); // not Date.UTC: it maps years 0-99 to 19xx
  return start;
}

export function tokenUsageOf(used: number, limit: number): AiTokenUsage {
  return { used, remaining: Math.max(0, limit - used), limit };
}

/**
 * The policy a use case is built with, checked once: a limit that is not a whole number ≥ 0 (a
 * policy of another shape, `{ limit: 100 }`) would report `remaining: NaN` and never refuse a call.
 */
export function checkedQuotaPolicy(policy: AiQuotaPolicy, owner: string): AiQuotaPolicy {
  const limit = (policy as Partial<AiQuotaPolicy> | undefined)?.defaultMonthlyTokenLimit;
  if (!Number.isSafeInteger(limit) || (limit as number) < 0) {
    throw new TypeError(`${owner}: policy.defaultMonthlyTokenLimit must be a whole number of at least 0`);
  }
  return policy;
}

/** The tenant's own monthly limit when set, else the service default. Unknown tenant: `TENANT_NOT_FOUND`. */
export async function monthlyTokenLimitOf(tenants: TenantRepository, policy: AiQuotaPolicy, tenantId: string): Promise<number> {
  const tenant = await tenants.findById(tenantId);
  if (!tenant) throw new DomainError(ErrorCodes.TENANT_NOT_FOUND, `Tenant ${tenantId} not found`);
  return tenant.aiTokenLimitMonthly ?? policy.defaultMonthlyTokenLimit;
}
