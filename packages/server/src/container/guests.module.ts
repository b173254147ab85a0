/**
 * Guest engagement: the policy from configuration, the AdmitGuest use case, and the guest gate
 * the HTTP pipeline runs on every guest write route (after the id check, before the body).
 */
import { GuestGateToken, type GuestGate } from '@cms/adapter-koa';
import {
  AdmitGuest,
  CaptchaPolicyToken,
  CaptchaVerifierToken,
  GuestEngagementPolicyToken,
  GuestRateLimiterToken,
  type CaptchaPolicy,
  type CaptchaVerifier,
  type Clock,
  type GuestEngagementPolicy,
  type GuestRateLimiter,
} from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const guestsModule = new ContainerModule(({ bind }) => {
  bind(GuestEngagementPolicyToken).toResolvedValue((config: ServiceConfig): GuestEngagementPolicy => config.engagement, [ServerTokens.Config]);
  bind(AdmitGuest).toResolvedValue(
    (verifier: CaptchaVerifier, captcha: CaptchaPolicy, limiter: GuestRateLimiter, policy: GuestEngagementPolicy, clock: Clock) =>
      new AdmitGuest(verifier, captcha, limiter, policy, clock),
    [CaptchaVerifierToken, CaptchaPolicyToken, GuestRateLimiterToken, GuestEngagementPolicyToken, ServerTokens.Clock],
  );
  bind<GuestGate>(GuestGateToken).toResolvedValue((admit: AdmitGuest): GuestGate => (caller) => admit.execute(caller), [AdmitGuest]);
});
