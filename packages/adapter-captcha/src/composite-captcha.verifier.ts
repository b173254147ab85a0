/**
 * The service's one CaptchaVerifier: dispatches each token to its provider's verifier. It does
 * not apply a form's minScore; it returns the provider's score for the caller to judge.
 */
import type { CaptchaCallContext, CaptchaProvider, CaptchaVerdict, CaptchaVerifier } from '@cms/core';
import type { ProviderVerifier } from './provider-verifier.js';

export class CompositeCaptchaVerifier implements CaptchaVerifier {
  constructor(private readonly verifiers: Readonly<Record<CaptchaProvider, ProviderVerifier>>) {}

  async verify(provider: CaptchaProvider, token: string, context: CaptchaCallContext = {}): Promise<CaptchaVerdict> {
    const verifier = Object.hasOwn(this.verifiers, provider) ? this.verifiers[provider] : undefined;
    // A provider name from stored data that is not one of ours: fail closed.
    if (!verifier) return { success: false };
    return verifier.verify(token, context);
  }
}
