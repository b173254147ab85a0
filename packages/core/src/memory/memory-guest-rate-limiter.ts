/**
 * In-memory guest rate counters, one per (tenant, guest, window). A hit reads and increments
 * without an await in between (as MongoDB's `$inc` upsert). Counters of ended windows are swept
 * now and then, as a TTL index would expire them, so memory stays bounded by the active guests.
 */
import type { GuestRateLimiter, GuestRateWindow } from '../guests/guests.ports.js';

const SWEEP_EVERY = 1024;

export class MemoryGuestRateLimiter implements GuestRateLimiter {
  readonly #counters = new Map<string, { count: number; endsAt: number }>();
  #hitsSinceSweep = 0;

  async hit(window: GuestRateWindow): Promise<number> {
    const windowStart = window.startsAt.getTime();
    if (++this.#hitsSinceSweep >= SWEEP_EVERY) this.#sweep(windowStart);
    const key = `${window.tenantId}\u0000${window.guestId}\u0000${windowStart}`;
    const counter = this.#counters.get(key);
    if (counter) return ++counter.count;
    this.#counters.set(key, { count: 1, endsAt: window.endsAt.getTime() });
    return 1;
  }

  /** Counters currently kept (for tests of the sweep). */
  get size(): number {
    return this.#counters.size;
  }

  /** Drops the counters of windows that ended by the start of the window being hit. */
  #sweep(windowStart: number): void {
    this.#hitsSinceSweep = 0;
    for (const [key, counter] of this.#counters) if (counter.endsAt <= windowStart) this.#counters.delete(key);
  }
}
