/**
 * Guest engagement: the policy from configuration and the AdmitGuest use case, which every
 * guest-write use case (reactions, comments) runs itself after its id check.
 */
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
});
