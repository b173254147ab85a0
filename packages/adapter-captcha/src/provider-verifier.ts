/** What the composite verifier dispatches to: the verifier of one provider. */
import type { CaptchaCallContext, CaptchaVerdict } from '@cms/core';

export interface ProviderVerifier {
  /** Never throws for a provider problem: anything but a clear "yes" is `{ success: false }`. */
  verify(token: string, context?: CaptchaCallContext): Promise<CaptchaVerdict>;
}
