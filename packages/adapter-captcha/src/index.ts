/** @cms/adapter-captcha — CAPTCHA verification adapters (reCAPTCHA v3, hCaptcha, Turnstile, none) for the CMS core CaptchaVerifier port. */
export {};
