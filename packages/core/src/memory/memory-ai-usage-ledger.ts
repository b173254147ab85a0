/**
 * In-memory AI token ledger. `add` reads and writes without awaiting in between, so on the
 * single JS thread it is as atomic as MongoDB's `$inc`.
 */
import type { AiUsageLedger } from '../ai/ai-usage.ports.js';
import { USAGE_MONTH_PATTERN } from '../ai/ai-quota.js';
import { tenantKey } from './tenant-key.js';

export class MemoryAiUsageLedger implements AiUsageLedger {
  readonly #totals = new Map<string, number>();

  async add(tenantId: string, month: string, tokens: number): Promise<number> {
    checkMonth(month);
    if (!Number.isSafeInteger(tokens) || tokens < 0) throw new Error(`tokens must be a whole number ≥ 0 (got ${tokens})`);
    const key = keyOf(tenantId, month);
    const total = (this.#totals.get(key) ?? 0) + tokens;
    this.#totals.set(key, total);
    return total;
  }

  async get(tenantId: string, month: string): Promise<number> {
    checkMonth(month);
    return this.#totals.get(keyOf(tenantId, month)) ?? 0;
  }
}

function checkMonth(month: string): void {
  if (!USAGE_MONTH_PATTERN.test(month)) throw new Error(`month must be YYYY-MM (got ${month})`);
}

const keyOf = (tenantId: string, month: string) => tenantKey(tenantId, month);
