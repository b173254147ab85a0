/** The `none` provider, and what an unconfigured provider falls back to: any non-empty token passes. */
import type { CaptchaVerdict } from '@cms/core';
import type { ProviderVerifier } from './provider-verifier.js';

export class NoneVerifier implements ProviderVerifier {
  async verify(token: string): Promise<CaptchaVerdict> {
    return { success: token.length > 0 };
  }
}
