/**
 * The three providers that speak the site-verify protocol: where each one's endpoint lives by
 * default and whether its answer carries a score the core may compare with a form's minScore.
 */
import type { CaptchaProvider } from '@cms/core';

/** A provider verified over HTTP (every provider but `none`). */
export type SiteVerifyProvider = Exclude<CaptchaProvider, 'none'>;

export const SITE_VERIFY_PROVIDERS: readonly SiteVerifyProvider[] = ['recaptcha', 'hcaptcha', 'turnstile'];

export interface SiteVerifyProviderTraits {
  /** The provider's public site-verify endpoint. */
  readonly defaultVerifyUrl: string;
  /**
   * Whether the verdict passes on the provider's `score`. Only reCAPTCHA v3's score means
   * "likely human" from 0 to 1; hCaptcha Enterprise's score runs the other way (1 = bot), so it
   * is never handed to a minScore meant for reCAPTCHA.
   */
  readonly returnsScore: boolean;
}

export const SITE_VERIFY_TRAITS: Readonly<Record<SiteVerifyProvider, SiteVerifyProviderTraits>> = {
  recaptcha: { defaultVerifyUrl: 'https://www.google.com/recaptcha/api/siteverify', returnsScore: true },
  hcaptcha: { defaultVerifyUrl: 'https://api.hcaptcha.com/siteverify', returnsScore: false },
  turnstile: { defaultVerifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', returnsScore: false },
};
