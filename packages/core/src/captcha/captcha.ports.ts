/**
 * CAPTCHA verification as a port. One verifier serves both a form's CAPTCHA gate and guest
 * engagement. Adapters never throw for a provider problem: an unreachable, slow or garbled
 * provider is a rejected token (fail closed).
 */
import { portToken, type PortToken } from '../shared/port-token.js';
import type { TraceContext } from '../shared/trace-context.js';

export const CAPTCHA_PROVIDERS = ['recaptcha', 'hcaptcha', 'turnstile', 'none'] as const;
export type CaptchaProvider = (typeof CAPTCHA_PROVIDERS)[number];

/** The built-in fallback when CAPTCHA_PROVIDER_DEFAULT is not set. */
export const FALLBACK_CAPTCHA_PROVIDER: CaptchaProvider = 'recaptcha';

export interface CaptchaVerdict {
  readonly success: boolean;
  /** reCAPTCHA v3's score (0..1); absent for providers that return none. */
  readonly score?: number;
}

/** What a verification may pass on to the provider besides the token. */
export interface CaptchaCallContext {
  readonly remoteIp?: string;
  /** The request's trace: the site-verify call carries a child `traceparent`. */
  readonly trace?: TraceContext;
}

export interface CaptchaVerifier {
  verify(provider: CaptchaProvider, token: string, context?: CaptchaCallContext): Promise<CaptchaVerdict>;
}

/** Service-wide CAPTCHA settings the core needs. */
export interface CaptchaPolicy {
  /** CAPTCHA_PROVIDER_DEFAULT, else the fallback: guest engagement's provider and a form gate's default. */
  readonly defaultProvider: CaptchaProvider;
}

export const CaptchaVerifierToken: PortToken<CaptchaVerifier> = portToken('CaptchaVerifier');
export const CaptchaPolicyToken: PortToken<CaptchaPolicy> = portToken('CaptchaPolicy');

export function isCaptchaProvider(value: unknown): value is CaptchaProvider {
  return typeof value === 'string' && (CAPTCHA_PROVIDERS as readonly string[]).includes(value);
}

/** A verifier that accepts exactly the tokens it is given (tests, demos); score per token. */
export class StaticCaptchaVerifier implements CaptchaVerifier {
  readonly calls: Array<{ provider: CaptchaProvider; token: string }> = [];

  constructor(private readonly accepted: ReadonlyMap<string, number | undefined> = new Map()) {}

  async verify(provider: CaptchaProvider, token: string): Promise<CaptchaVerdict> {
    this.calls.push({ provider, token });
    if (provider === 'none') return { success: token.length > 0 };
    if (!this.accepted.has(token)) return { success: false };
    const score = this.accepted.get(token);
    return score === undefined ? { success: true } : { success: true, score };
  }
}
