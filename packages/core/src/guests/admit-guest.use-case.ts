/**
 * The guest-engagement gate, run before every guest write (reactions, comments). In the
 * contract's order: no CAPTCHA token → no valid guest id → token rejected by the provider (or
 * below the minimum score) → over the rate limit. Users pass untouched. Every guest request
 * that reaches the rate limit counts, even one that will change nothing.
 */
import { captchaCallContextOf } from '../captcha/captcha-call-context.js';
import type { CaptchaPolicy, CaptchaVerifier } from '../captcha/captcha.ports.js';
import type { Caller } from '../shared/caller.js';
import type { Clock } from '../shared/clock.js';
import { DomainError, limitError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { requireTenantId } from '../tenancy/tenant.js';
import type { GuestEngagementPolicy, GuestRateLimiter } from './guests.ports.js';

/**
 * The policy a gate is built with, checked once: a limit that is not a whole number ≥ 1 (`Number(undefined)`)
 * turned the rate limit off, and a window that is not a positive whole number of seconds (0, NaN)
 * refused a guest for good with `retryAfterSeconds: NaN`.
 */
export function checkedGuestPolicy(policy: GuestEngagementPolicy, owner: string): GuestEngagementPolicy {
  const { limit, windowSeconds, minCaptchaScore } = (policy ?? {}) as Partial<GuestEngagementPolicy>;
  if (!Number.isSafeInteger(limit) || limit! < 1) throw new TypeError(`${owner}: the guest policy's limit must be a whole number of at least 1`);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds! < 1) throw new TypeError(`${owner}: the guest policy's windowSeconds must be a whole number of at least 1`);
  if (typeof minCaptchaScore !== 'number' || !(minCaptchaScore >= 0 && minCaptchaScore <= 1)) throw new TypeError(`${owner}: the guest policy's minCaptchaScore must be a number from 0 to 1`);
  return policy;
}

export class AdmitGuest {
  constructor(
    private readonly verifier: CaptchaVerifier,
    private readonly captcha: CaptchaPolicy,
    private readonly limiter: GuestRateLimiter,
    private readonly policy: GuestEngagementPolicy,
    private readonly clock: Clock,
  ) {
    checkedGuestPolicy(policy, 'AdmitGuest');
  }

  /** A tenant id that is not one is refused first (decision 0801): a guest's hit is stored under it. */
  async execute(caller: Caller): Promise<void> {
    requireTenantId(caller.tenantId);
    if (caller.user) return;
    const token = caller.guest?.captchaToken;
    if (!token) throw new DomainError(ErrorCodes.GUEST_CAPTCHA_REQUIRED, 'a guest needs a CAPTCHA token to engage');
    const guestId = caller.guest?.id;
    if (!guestId) throw new DomainError(ErrorCodes.GUEST_ID_MISSING, 'a guest needs a guest id to engage');

    const verdict = await this.verifier.verify(this.captcha.defaultProvider, token, captchaCallContextOf(caller));
    const scoreTooLow = verdict.score !== undefined && verdict.score < this.policy.minCaptchaScore;
    if (!verdict.success || scoreTooLow) throw new DomainError(ErrorCodes.GUEST_CAPTCHA_INVALID, 'the guest CAPTCHA token was not accepted');

    const windowMs = this.policy.windowSeconds * 1000;
    const now = this.clock.now();
    const startsAt = Math.floor(now.getTime() / windowMs) * windowMs;
    const endsAt = new Date(startsAt + windowMs);
    const count = await this.limiter.hit({ tenantId: caller.tenantId, guestId, startsAt: new Date(startsAt), endsAt });
    if (count > this.policy.limit) {
      throw limitError(ErrorCodes.GUEST_RATE_LIMITED, 'Too many guest reactions, please try later', now, endsAt);
    }
  }
}
