/**
 * AI token usage: a ledger of tokens spent per tenant per calendar month (UTC), and the
 * service-wide default limit. A tenant's own limit lives on the tenant (`aiTokenLimitMonthly`).
 */
import { portToken, type PortToken } from '../shared/port-token.js';

export interface AiUsageLedger {
  /**
   * Adds `tokens` (a whole number ≥ 0) to the tenant's total for `month` (`YYYY-MM`), creating
   * the total at 0 when absent, and returns the new total. Atomic: concurrent adds never lose
   * tokens, also for the first add of a month, and each returns the total just after its own
   * add (decision 0102).
   */
  add(tenantId: string, month: string, tokens: number): Promise<number>;
  /** The tenant's total for `month`; 0 when nothing was spent. */
  get(tenantId: string, month: string): Promise<number>;
}

/** Service-wide AI settings the quota needs. */
export interface AiQuotaPolicy {
  /** AI_TOKEN_LIMIT_MONTHLY: the limit of a tenant without its own. */
  readonly defaultMonthlyTokenLimit: number;
}

export const AiUsageLedgerToken: PortToken<AiUsageLedger> = portToken('AiUsageLedger');
export const AiQuotaPolicyToken: PortToken<AiQuotaPolicy> = portToken('AiQuotaPolicy');
