/**
 * Claims that take turns between receivers (webhooks, notification channels), one
 * `findOneAndUpdate` per job (decision 0817): each takes the oldest free due job of the next
 * receiver after the one the previous claim took from (`$gt`), receivers holding their share left
 * out (`$nin`), and wraps round to the lowest when none is after it. Served by an index
 * `{status, <receiver field>, nextAttemptAt}`: the sort is the index's order, and the receivers
 * passed over are outside its bounds, so their backlog is never read. With a share per tenant
 * (webhooks, decision 0823) every receiver of a tenant that holds its share is left out the same
 * way: `receiversOfTenants` names them (one indexed read, only while a tenant is at its share).
 */
import type { ClaimShare } from '@cms/core';
import type { Document, Filter, UpdateFilter, WithId } from 'mongodb';
import type { MongoCollection } from './mongo-database.js';

/** What a claimable job's document holds. */
interface ClaimableDocument extends Document {
  tenantId?: string;
  status: string;
  nextAttemptAt: Date;
  claimedUntil: Date | null;
  attempts: number;
  updatedAt: Date;
}

export class TurnClaims<D extends ClaimableDocument, R> {
  /** The receiver this instance's last claim took a job from: the next claim starts after it. */
  #last: R | null = null;

  /**
   * @param field the field that names a job's receiver
   * @param keyOf how a receiver is named in a share (`ClaimShare.inFlight`), and `valueOf` back
   * @param receiversOfTenants every receiver of the tenants given, for a share per tenant
   */
  constructor(
    private readonly collection: MongoCollection<D>,
    private readonly field: keyof D & string,
    private readonly keyOf: (value: R) => string,
    private readonly valueOf: (key: string) => R,
    private readonly receiversOfTenants?: (tenantIds: readonly string[]) => Promise<R[]>,
  ) {}

  /** Claims up to `limit` pending jobs due at `now`, with no live claim, until `now + leaseMs`, counting an attempt. */
  async claim(now: Date, leaseMs: number, limit: number, share: ClaimShare | undefined): Promise<WithId<D>[]> {
    const perReceiver = share?.perReceiver ?? Infinity;
    const inFlight = new Map(share?.inFlight);
    const full = [...inFlight].filter(([, count]) => count >= perReceiver).map(([key]) => this.valueOf(key));
    const perTenant = this.receiversOfTenants ? (share?.perTenant ?? Infinity) : Infinity;
    const byTenant = new Map(share?.inFlightByTenant);
    const fullTenants = [...byTenant].filter(([, count]) => count >= perTenant).map(([tenantId]) => tenantId);
    if (fullTenants.length > 0) full.push(...(await this.receiversOfTenants!(fullTenants)));
    const due = { status: 'pending', nextAttemptAt: { $lte: now }, $or: [{ claimedUntil: null }, { claimedUntil: { $lte: now } }] };
    const update = { $set: { claimedUntil: new Date(now.getTime() + leaseMs), updatedAt: now }, $inc: { attempts: 1 } } as unknown as UpdateFilter<D>;
    const claimed: WithId<D>[] = [];
    let after = this.#last;
    while (claimed.length < limit) {
      const receiver = { ...(after !== null ? { $gt: after } : {}), ...(full.length > 0 ? { $nin: full } : {}) };
      const filter = { ...due, ...(Object.keys(receiver).length > 0 ? { [this.field]: receiver } : {}) } as Filter<D>;
      const document = await this.collection.findOneAndUpdate(filter, update, { sort: { [this.field]: 1, nextAttemptAt: 1 }, returnDocument: 'after' });
      if (!document) {
        if (after === null) break;
        after = null; // nothing after it: wrap round
        continue;
      }
      claimed.push(document);
      after = this.#last = document[this.field] as R;
      const key = this.keyOf(after);
      const count = (inFlight.get(key) ?? 0) + 1;
      inFlight.set(key, count);
      if (count >= perReceiver) full.push(after);
      const tenantId = document.tenantId;
      if (perTenant !== Infinity && tenantId !== undefined) {
        const tenantCount = (byTenant.get(tenantId) ?? 0) + 1;
        byTenant.set(tenantId, tenantCount);
        if (tenantCount >= perTenant) full.push(...(await this.receiversOfTenants!([tenantId])));
      }
    }
    return claimed;
  }
}
