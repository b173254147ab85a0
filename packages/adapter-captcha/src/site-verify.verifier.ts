/**
 * One provider's site-verify call: POST `secret`, `response` (and `remoteip`) form-encoded, read
 * `success` (and `score`). Fails closed: a timeout, a network error, a non-2xx status (a redirect
 * included: it is not followed), a body that is not the expected JSON or is over 64 KiB, or a score
 * that is not one is a rejected token, logged once per call without the token.
 */
import { type CaptchaCallContext, type CaptchaVerdict, type Logger } from '@cms/core';
import { boundedText, errorText, logFieldsOf, traceparentOf } from '@cms/core/internal';
import type { ProviderVerifier } from './provider-verifier.js';
import { SITE_VERIFY_TRAITS, type SiteVerifyProvider } from './site-verify-providers.js';

export interface SiteVerifySettings {
  readonly provider: SiteVerifyProvider;
  readonly secret: string;
  /** Defaults to the provider's public endpoint. */
  readonly verifyUrl?: string | undefined;
  /** The whole exchange (connect, send, read the body) must finish within this. */
  readonly timeoutMs: number;
}

/** A site-verify answer is a few hundred bytes; one far longer is no answer (and is not read whole). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Error codes that mean our own secret is wrong: worth an operator's attention, not the user's fault. */
const SECRET_ERRORS = new Set(['missing-input-secret', 'invalid-input-secret']);

export class SiteVerifyVerifier implements ProviderVerifier {
  readonly #verifyUrl: string;
  readonly #returnsScore: boolean;

  constructor(
    private readonly settings: SiteVerifySettings,
    private readonly logger: Logger,
  ) {
    const traits = SITE_VERIFY_TRAITS[settings.provider];
    this.#verifyUrl = settings.verifyUrl ?? traits.defaultVerifyUrl;
    this.#returnsScore = traits.returnsScore;
  }

  async verify(token: string, context: CaptchaCallContext = {}): Promise<CaptchaVerdict> {
    if (token.length === 0) return { success: false };
    const form = new URLSearchParams({ secret: this.settings.secret, response: token });
    if (context.remoteIp) form.set('remoteip', plainAddress(context.remoteIp));
    let body: unknown;
    try {
      const response = await fetch(this.#verifyUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          ...(context.trace ? { traceparent: traceparentOf(context.trace) } : {}),
        },
        body: form,
        // A redirect would carry the secret to another origin and let it decide: a 3xx is a failure.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        return this.#unavailable(`HTTP ${response.status}`, context);
      }
      const text = await boundedText(response, MAX_ANSWER_BYTES);
      if (text === undefined) return this.#unavailable(`answer is larger than ${MAX_ANSWER_BYTES} bytes`, context);
      body = JSON.parse(text);
    } catch (error) {
      return this.#unavailable(describeFailure(error, this.settings.timeoutMs), context);
    }
    return this.#verdictOf(body, context);
  }

  #verdictOf(body: unknown, context: CaptchaCallContext): CaptchaVerdict {
    if (typeof body !== 'object' || body === null || typeof (body as { success?: unknown }).success !== 'boolean') {
      return this.#unavailable('answer is not a site-verify result', context);
    }
    const { success, score } = body as { success: boolean; score?: unknown };
    if (!success) {
      const codes = (body as { 'error-codes'?: unknown })['error-codes'];
      if (Array.isArray(codes) && codes.some((code) => SECRET_ERRORS.has(String(code)))) {
        this.logger.warn('CAPTCHA provider rejects the configured secret', { provider: this.settings.provider, errorCodes: codes, ...logFieldsOf(context.trace) });
      }
      return { success: false };
    }
    if (!this.#returnsScore) return { success: true };
    // reCAPTCHA is v3 (CONTRACT §1): an answer without a score (a v2 secret) would skip every
    // `minScore`, so it fails closed, as a score that is no number from 0 to 1 does.
    if (score === undefined) return this.#unavailable('answer has no score (reCAPTCHA v3 answers one; is the secret a v2 one?)', context);
    if (typeof score !== 'number' || !(score >= 0 && score <= 1)) return this.#unavailable('answer has a score that is not a number from 0 to 1', context);
    return { success: true, score };
  }

  #unavailable(reason: string, context: CaptchaCallContext): CaptchaVerdict {
    this.logger.warn('CAPTCHA provider unavailable; token rejected', { provider: this.settings.provider, reason, ...logFieldsOf(context.trace) });
    return { success: false };
  }
}

/**
 * The address as providers score it: an IPv4 client of a dual-stack listener (`::`) reaches Node
 * as `::ffff:a.b.c.d`, and its IPv4 form is the one reputation lists know.
 */
function plainAddress(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice('::ffff:'.length) : ip;
}

function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return `no answer within ${timeoutMs} ms`;
  }
  if (error instanceof SyntaxError) return 'answer is not JSON';
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${errorText(error)}${cause}`;
}
