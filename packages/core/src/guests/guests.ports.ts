/**
 * The guest rate limit's store: a counter per (tenant, guest id, fixed window) with an expiry,
 * kept in the shared store so every instance of the service counts against the same limit.
 */
import { portToken, type PortToken } from '../shared/port-token.js';

export interface GuestRateWindow {
  readonly tenantId: string;
  readonly guestId: string;
  /** Start of the fixed window (a multiple of the window length since the epoch). */
  readonly startsAt: Date;
  /** When the window ends; its counter may be forgotten from then on (MongoDB: a TTL index). */
  readonly endsAt: Date;
}

export interface GuestRateLimiter {
  /**
   * Counts one guest write in the window and returns the count including it, in one atomic step
   * (MongoDB: `findOneAndUpdate` with `$inc` and `upsert`): concurrent hits get distinct counts.
   */
  hit(window: GuestRateWindow): Promise<number>;
}

/** The service-wide guest engagement settings. */
export interface GuestEngagementPolicy {
  /** Guest writes allowed per guest id and tenant in one window (GUEST_REACTION_LIMIT). */
  readonly limit: number;
  /** Window length (GUEST_REACTION_WINDOW_SECONDS). */
  readonly windowSeconds: number;
  /** Lowest CAPTCHA score accepted from a score-returning provider (GUEST_CAPTCHA_MIN_SCORE). */
  readonly minCaptchaScore: number;
}

export const DEFAULT_GUEST_ENGAGEMENT_POLICY: GuestEngagementPolicy = Object.freeze({ limit: 30, windowSeconds: 600, minCaptchaScore: 0.5 });

export const GuestRateLimiterToken: PortToken<GuestRateLimiter> = portToken('GuestRateLimiter');
export const GuestEngagementPolicyToken: PortToken<GuestEngagementPolicy> = portToken('GuestEngagementPolicy');
