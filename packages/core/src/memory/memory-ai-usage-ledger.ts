/**
 * In-memory AI token ledger. `add` reads and writes without awaiting in between, so on the
 * single JS thread it is as atomic as MongoDB's `$inc`.
 */
import type { AiUsageLedger } from '../ai/ai-usage.ports.js';
import { checkLedgerArguments } from '../ai/ai-quota.js';
import { tenantKey } from './tenant-key.js';

export class MemoryAiUsageLedger implements AiUsageLedger {
  readonly #totals = new Map<string, number>();

  async add(tenantId: string, month: string, tokens: number): Promise<number> {
    checkLedgerArguments(month, tokens);
    const key = tenantKey(tenantId, month);
    const total = (this.#totals.get(key) ?? 0) + tokens;
    this.#totals.set(key, total);
    return total;
  }

  async get(tenantId: string, month: string): Promise<number> {
    checkLedgerArguments(month);
    return this.#totals.get(tenantKey(tenantId, month)) ?? 0;
  }
}

