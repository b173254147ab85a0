/**
 * CAPTCHA: the service-wide policy, and the one verifier every gate uses (adapter-captcha's
 * composite over reCAPTCHA v3, hCaptcha, Turnstile and `none`). Building the verifier logs one
 * warning (an error in production, where such a provider fails closed) per provider without a
 * secret; startService resolves it at start-up so that happens then.
 */
import { createCaptchaVerifier } from '@cms/adapter-captcha';
import { CaptchaPolicyToken, CaptchaVerifierToken, type CaptchaPolicy, type CaptchaVerifier, type Logger } from '@cms/core';
import { ContainerModule } from 'inversify';
import type { ServiceConfig } from '../config/service-config.js';
import { ServerTokens } from './server-tokens.js';

export const captchaModule = new ContainerModule(({ bind }) => {
  bind(CaptchaPolicyToken).toResolvedValue(
    (config: ServiceConfig): CaptchaPolicy => ({ defaultProvider: config.captcha.defaultProvider }),
    [ServerTokens.Config],
  );
  bind(CaptchaVerifierToken).toResolvedValue(
    (config: ServiceConfig, logger: Logger): CaptchaVerifier =>
      createCaptchaVerifier(
        { timeoutMs: config.captcha.timeoutMs, providers: config.captcha.providers, failClosed: config.production },
        logger,
      ),
    [ServerTokens.Config, ServerTokens.Logger],
  );
});
