/**
 * The `none` provider, and what an unconfigured provider falls back to outside production: any
 * non-empty token passes. In production an unconfigured provider rejects every token instead.
 */
import type { CaptchaVerdict } from '@cms/core';
import type { ProviderVerifier } from './provider-verifier.js';

export class NoneVerifier implements ProviderVerifier {
  async verify(token: string): Promise<CaptchaVerdict> {
    return { success: token.length > 0 };
  }
}

/** An unconfigured provider in production: fail closed, whatever the token. */
export class RejectAllVerifier implements ProviderVerifier {
  async verify(): Promise<CaptchaVerdict> {
    return { success: false };
  }
}
