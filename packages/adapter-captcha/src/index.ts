/**
 * @cms/adapter-captcha — CAPTCHA verification adapters (reCAPTCHA v3, hCaptcha, Turnstile, none)
 * for the CMS core CaptchaVerifier port. Plain `fetch`, no provider SDK.
 */
export * from './site-verify-providers.js';
export * from './provider-verifier.js';
export * from './none.verifier.js';
export * from './site-verify.verifier.js';
export * from './composite-captcha.verifier.js';
export * from './create-captcha-verifier.js';
