/**
 * Builds the service-wide verifier from settings. A provider without a secret falls back to
 * `none`, and says so once, here, when the verifier is built (at start-up).
 */
import type { CaptchaVerifier, Logger } from '@cms/core';
import { CompositeCaptchaVerifier } from './composite-captcha.verifier.js';
import { NoneVerifier } from './none.verifier.js';
import type { ProviderVerifier } from './provider-verifier.js';
import { SITE_VERIFY_PROVIDERS, type SiteVerifyProvider } from './site-verify-providers.js';
import { SiteVerifyVerifier } from './site-verify.verifier.js';

export interface CaptchaVerifierSettings {
  /** Per-request limit for a site-verify call. */
  readonly timeoutMs: number;
  readonly providers: Readonly<
    Record<SiteVerifyProvider, { readonly secret: string | undefined; readonly verifyUrl?: string | undefined }>
  >;
}

/** The composite verifier over reCAPTCHA v3, hCaptcha, Turnstile and `none`. */
export function createCaptchaVerifier(settings: CaptchaVerifierSettings, logger: Logger): CaptchaVerifier {
  const none = new NoneVerifier();
  const verifiers = { none } as Record<SiteVerifyProvider | 'none', ProviderVerifier>;
  for (const provider of SITE_VERIFY_PROVIDERS) {
    const { secret, verifyUrl } = settings.providers[provider];
    if (secret) {
      verifiers[provider] = new SiteVerifyVerifier({ provider, secret, verifyUrl, timeoutMs: settings.timeoutMs }, logger);
    } else {
      verifiers[provider] = none;
      logger.warn(`CAPTCHA provider ${provider} has no secret (CAPTCHA_${provider.toUpperCase()}_SECRET): it accepts any non-empty token, like "none"`, {
        provider,
      });
    }
  }
  return new CompositeCaptchaVerifier(verifiers);
}
