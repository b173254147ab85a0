/**
 * In-memory guest rate counters, one per (tenant, guest, window). A hit reads and increments
 * without an await in between (as MongoDB's `$inc` upsert). Counters are kept per window end, and
 * a window's counters are dropped whole once a hit falls in a window that starts a minute or more
 * after it ended, as MongoDB's TTL monitor (a pass a minute) expires them: a late hit of a window
 * just ended still counts on, memory stays bounded by the recently active guests, and no hit walks
 * the counters of the guests of open windows (decision 0837: a sweep every 1,024 hits walked them
 * all, ~9 ms at 1,000,000 guests in one window).
 */
import type { GuestRateLimiter, GuestRateWindow } from '../guests/guests.ports.js';

/** How long after its end a window's counters are kept at least. */
const EXPIRY_DELAY_MS = 60_000;

export class MemoryGuestRateLimiter implements GuestRateLimiter {
  /** Window end (ms) → (tenant, guest, window start) → hits. */
  readonly #windows = new Map<number, Map<string, number>>();
  /** The earliest end among `#windows`: a hit in a window starting a minute after it drops ended windows. */
  #earliestEnd = Infinity;

  async hit(window: GuestRateWindow): Promise<number> {
    const windowStart = window.startsAt.getTime();
    if (windowStart - EXPIRY_DELAY_MS >= this.#earliestEnd) this.#dropEnded(windowStart - EXPIRY_DELAY_MS);
    const endsAt = window.endsAt.getTime();
    let counters = this.#windows.get(endsAt);
    if (!counters) {
      this.#windows.set(endsAt, (counters = new Map()));
      this.#earliestEnd = Math.min(this.#earliestEnd, endsAt);
    }
    const key = `${window.tenantId}\u0000${window.guestId}\u0000${windowStart}`;
    const count = (counters.get(key) ?? 0) + 1;
    counters.set(key, count);
    return count;
  }

  /** Counters currently kept (for tests of the expiry). */
  get size(): number {
    let size = 0;
    for (const counters of this.#windows.values()) size += counters.size;
    return size;
  }

  /** Drops the counters of windows that ended by `cut`. */
  #dropEnded(cut: number): void {
    this.#earliestEnd = Infinity;
    for (const [endsAt, counters] of this.#windows) {
      if (endsAt <= cut) {
        this.#windows.delete(endsAt);
        counters.clear();
      } else {
        this.#earliestEnd = Math.min(this.#earliestEnd, endsAt);
      }
    }
  }
}
