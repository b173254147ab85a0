/**
 * CAPTCHA: the service-wide policy, and the verifier. Until the provider adapters are wired
 * (adapter-captcha), every provider behaves like `none` — which is what the contract asks of a
 * provider whose secret is not configured.
 */
import { CaptchaPolicyToken, CaptchaVerifierToken, type CaptchaPolicy, type CaptchaVerifier } from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

const acceptAnyNonEmptyToken: CaptchaVerifier = {
  verify: async (_provider, token) => ({ success: token.length > 0 }),
};

export const captchaModule = new ContainerModule(({ bind }) => {
  bind(CaptchaPolicyToken).toResolvedValue(
    (config: ServiceConfig): CaptchaPolicy => ({ defaultProvider: config.captcha.defaultProvider }),
    [ServerTokens.Config],
  );
  bind(CaptchaVerifierToken).toConstantValue(acceptAnyNonEmptyToken);
});
