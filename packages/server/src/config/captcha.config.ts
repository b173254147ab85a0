/** CAPTCHA settings: the default provider and, per provider, secret, verify URL and timeout. */
import { CAPTCHA_PROVIDERS, FALLBACK_CAPTCHA_PROVIDER, type CaptchaProvider } from '@cms/core';
import { ConfigError, type EnvReader } from './env-reader.js';
import { hasCredentials, parsedUrl } from './urls.js';

export type HttpCaptchaProvider = Exclude<CaptchaProvider, 'none'>;

export interface CaptchaConfig {
  readonly defaultProvider: CaptchaProvider;
  readonly timeoutMs: number;
  readonly providers: Readonly<Record<HttpCaptchaProvider, { readonly secret: string | undefined; readonly verifyUrl: string | undefined }>>;
}

export function loadCaptchaConfig(read: EnvReader): CaptchaConfig {
  const provider = (name: HttpCaptchaProvider) => {
    const upper = name.toUpperCase();
    const verifyUrl = read.string(`CAPTCHA_${upper}_VERIFY_URL`);
    // Not quoted: a URL may carry a token. One with credentials could never be called (fetch refuses them).
    if (verifyUrl !== undefined && !isPlainHttpUrl(verifyUrl)) {
      throw new ConfigError(`CAPTCHA_${upper}_VERIFY_URL`, 'must be an http(s) URL without credentials, such as https://www.google.com/recaptcha/api/siteverify');
    }
    return { secret: read.raw(`CAPTCHA_${upper}_SECRET`), verifyUrl };
  };
  return {
    defaultProvider: read.oneOf('CAPTCHA_PROVIDER_DEFAULT', CAPTCHA_PROVIDERS, FALLBACK_CAPTCHA_PROVIDER),
    timeoutMs: read.int('CAPTCHA_TIMEOUT_MS', 5000, 100, 60_000),
    providers: { recaptcha: provider('recaptcha'), hcaptcha: provider('hcaptcha'), turnstile: provider('turnstile') },
  };
}

function isPlainHttpUrl(value: string): boolean {
  const url = /^https?:\/\/\S+$/.test(value) ? parsedUrl(value) : undefined;
  return url !== undefined && !hasCredentials(url);
}
