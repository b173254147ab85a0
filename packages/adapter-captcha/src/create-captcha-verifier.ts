/**
 * Builds the service-wide verifier from settings. A provider without a secret falls back to
 * `none` (development) or rejects every token (`failClosed`, production), and says so once,
 * here, when the verifier is built (at start-up).
 */
import type { CaptchaVerifier, Logger } from '@cms/core';
import { CompositeCaptchaVerifier } from './composite-captcha.verifier.js';
import { NoneVerifier, RejectAllVerifier } from './none.verifier.js';
import type { ProviderVerifier } from './provider-verifier.js';
import { SITE_VERIFY_PROVIDERS, type SiteVerifyProvider } from './site-verify-providers.js';
import { SiteVerifyVerifier } from './site-verify.verifier.js';

export interface CaptchaVerifierSettings {
  /** Per-request limit for a site-verify call. */
  readonly timeoutMs: number;
  readonly providers: Readonly<
    Record<SiteVerifyProvider, { readonly secret: string | undefined; readonly verifyUrl?: string | undefined }>
  >;
  /**
   * Production: a provider without a secret rejects every token instead of acting like `none`
   * (CONTRACT §1, version 1.2). Only `none`, chosen explicitly, then passes any token.
   */
  readonly failClosed?: boolean;
}

/** The composite verifier over reCAPTCHA v3, hCaptcha, Turnstile and `none`. */
export function createCaptchaVerifier(settings: CaptchaVerifierSettings, logger: Logger): CaptchaVerifier {
  const none = new NoneVerifier();
  const rejectAll = new RejectAllVerifier();
  const verifiers = { none } as Record<SiteVerifyProvider | 'none', ProviderVerifier>;
  for (const provider of SITE_VERIFY_PROVIDERS) {
    const { secret, verifyUrl } = settings.providers[provider];
    if (secret) {
      verifiers[provider] = new SiteVerifyVerifier({ provider, secret, verifyUrl, timeoutMs: settings.timeoutMs }, logger);
    } else if (settings.failClosed) {
      verifiers[provider] = rejectAll;
      logger.error(
        `CAPTCHA provider ${provider} has no secret (CAPTCHA_${provider.toUpperCase()}_SECRET): in production it rejects every token; set the secret, or choose the provider "none" explicitly`,
        { provider },
      );
    } else {
      verifiers[provider] = none;
      logger.warn(`CAPTCHA provider ${provider} has no secret (CAPTCHA_${provider.toUpperCase()}_SECRET): it accepts any non-empty token, like "none"`, {
        provider,
      });
    }
  }
  return new CompositeCaptchaVerifier(verifiers);
}
