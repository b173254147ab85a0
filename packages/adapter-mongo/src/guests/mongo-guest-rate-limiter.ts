/**
 * Guest rate counters on MongoDB: one document per (tenant, guest id, fixed window), unique by
 * `tenant_guest_window_unique`. A hit is one `$inc` upsert returning the new count, so racing
 * hits get distinct counts, also on a window's first hit (a lost upsert race is retried and then
 * increments the winner's document). `expiresAt` is the window's end; the TTL index
 * `expires_ttl` lets the server delete ended windows (its monitor runs about once a minute).
 */
import type { GuestRateLimiter, GuestRateWindow } from '@cms/core';
import type { ObjectId } from 'mongodb';
import { retryUpsertOnDuplicateKey } from '../storage/duplicate-key.js';
import { Collections } from '../storage/mongo-collections.js';
import type { MongoCollection, MongoDatabase } from '../storage/mongo-database.js';

interface GuestRateWindowDocument {
  _id: ObjectId;
  tenantId: string;
  guestId: string;
  windowStart: Date;
  count: number;
  /** The window's end: the TTL index deletes the document from then on. */
  expiresAt: Date;
}

export class MongoGuestRateLimiter implements GuestRateLimiter {
  readonly #windows: MongoCollection<GuestRateWindowDocument>;

  constructor(db: MongoDatabase) {
    this.#windows = db.collection<GuestRateWindowDocument>(Collections.guestRateWindows);
  }

  async hit(window: GuestRateWindow): Promise<number> {
    const document = await retryUpsertOnDuplicateKey(() =>
      this.#windows.findOneAndUpdate(
        { tenantId: window.tenantId, guestId: window.guestId, windowStart: window.startsAt },
        { $inc: { count: 1 }, $setOnInsert: { expiresAt: window.endsAt } },
        { upsert: true, returnDocument: 'after', projection: { count: 1 } },
      ),
    );
    if (!document) throw new Error('guest rate window upsert returned no document');
    return document.count;
  }
}
