/**
 * AI token usage on MongoDB: one document per (tenant, month), unique by `tenant_month_unique`.
 * An add is one `$inc` upsert returning the new total, so concurrent calls never lose tokens,
 * also on the first add of a month (a lost upsert race is retried and then increments the winner).
 */
import { type AiUsageLedger } from '@cms/core';
import { checkLedgerArguments } from '@cms/core/internal';
import type { ObjectId } from 'mongodb';
import { retryUpsertOnDuplicateKey } from '../storage/duplicate-key.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';

interface AiUsageDocument {
  _id: ObjectId;
  tenantId: string;
  /** `YYYY-MM`, UTC. */
  month: string;
  tokens: number;
}

export class MongoAiUsageLedger implements AiUsageLedger {
  readonly #usage: MongoCollection<AiUsageDocument>;

  constructor(db: MongoDatabase) {
    this.#usage = db.collection<AiUsageDocument>(Collections.aiUsage);
  }

  async add(tenantId: string, month: string, tokens: number): Promise<number> {
    checkLedgerArguments(month, tokens);
    const document = await retryUpsertOnDuplicateKey(() =>
      this.#usage.findOneAndUpdate({ tenantId, month }, { $inc: { tokens } }, { upsert: true, returnDocument: 'after' }),
    );
    if (!document) throw new Error('AI usage upsert returned no document');
    return document.tokens;
  }

  async get(tenantId: string, month: string): Promise<number> {
    checkLedgerArguments(month);
    const document = await this.#usage.findOne({ tenantId, month });
    return document?.tokens ?? 0;
  }
}
