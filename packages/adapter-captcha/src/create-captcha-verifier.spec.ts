import { expect } from 'chai';
import type { Logger } from '@cms/core';
import { createCaptchaVerifier, type CaptchaVerifierSettings } from './create-captcha-verifier.js';
import { LocalSiteVerifyServer } from './testing/local-site-verify.server.js';

class RecordingLogger implements Logger {
  readonly warnings: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  readonly errors: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  info() {}
  warn(message: string, fields?: Record<string, unknown>) {
    this.warnings.push({ message, fields });
  }
  error(message: string, fields?: Record<string, unknown>) {
    this.errors.push({ message, fields });
  }
}

const unconfigured: CaptchaVerifierSettings = {
  timeoutMs: 1000,
  providers: {
    recaptcha: { secret: undefined },
    hcaptcha: { secret: undefined },
    turnstile: { secret: undefined },
  },
};

describe('createCaptchaVerifier', () => {
  describe('when no provider has a secret', () => {
    it('warns once per provider while building, and not again when verifying', async () => {
      const logger = new RecordingLogger();
      const verifier = createCaptchaVerifier(unconfigured, logger);
      expect(logger.warnings.map((w) => w.fields?.['provider'])).to.deep.equal(['recaptcha', 'hcaptcha', 'turnstile']);
      expect(logger.warnings[0]?.message).to.contain('CAPTCHA_RECAPTCHA_SECRET');
      await verifier.verify('recaptcha', 'anything');
      await verifier.verify('turnstile', 'anything');
      expect(logger.warnings).to.have.length(3);
    });

    it('treats every provider like none: any non-empty token passes, an empty one fails', async () => {
      const verifier = createCaptchaVerifier(unconfigured, new RecordingLogger());
      for (const provider of ['recaptcha', 'hcaptcha', 'turnstile', 'none'] as const) {
        expect(await verifier.verify(provider, 'x'), provider).to.deep.equal({ success: true });
        expect(await verifier.verify(provider, ''), provider).to.deep.equal({ success: false });
      }
    });
  });

  describe('when one provider has a secret', () => {
    let server: LocalSiteVerifyServer;
    beforeEach(async () => (server = await LocalSiteVerifyServer.start()));
    afterEach(() => server.stop());

    it('verifies that provider over HTTP, dispatches the others to none, and warns only about them', async () => {
      const logger = new RecordingLogger();
      const verifier = createCaptchaVerifier(
        { ...unconfigured, providers: { ...unconfigured.providers, hcaptcha: { secret: 'h-secret', verifyUrl: server.url } } },
        logger,
      );
      expect(logger.warnings.map((w) => w.fields?.['provider'])).to.deep.equal(['recaptcha', 'turnstile']);
      server.answer = { kind: 'json', body: { success: false } };
      expect(await verifier.verify('hcaptcha', 'token-1')).to.deep.equal({ success: false });
      expect(await verifier.verify('recaptcha', 'token-2')).to.deep.equal({ success: true });
      expect(server.received.map((r) => r.form)).to.deep.equal([{ secret: 'h-secret', response: 'token-1' }]);
    });
  });

  describe('when failing closed (production) and a provider has no secret', () => {
    let server: LocalSiteVerifyServer;
    beforeEach(async () => (server = await LocalSiteVerifyServer.start()));
    afterEach(() => server.stop());

    it('logs one error per such provider naming its variable, and no warning', () => {
      const logger = new RecordingLogger();
      createCaptchaVerifier({ ...unconfigured, failClosed: true }, logger);
      expect(logger.warnings).to.deep.equal([]);
      expect(logger.errors.map((e) => e.fields?.['provider'])).to.deep.equal(['recaptcha', 'hcaptcha', 'turnstile']);
      expect(logger.errors.map((e) => /\((CAPTCHA_[A-Z]+_SECRET)\)/.exec(e.message)?.[1])).to.deep.equal([
        'CAPTCHA_RECAPTCHA_SECRET',
        'CAPTCHA_HCAPTCHA_SECRET',
        'CAPTCHA_TURNSTILE_SECRET',
      ]);
    });

    it('rejects every token of those providers, still verifies a configured one, and lets "none" pass', async () => {
      const logger = new RecordingLogger();
      const verifier = createCaptchaVerifier(
        { ...unconfigured, failClosed: true, providers: { ...unconfigured.providers, turnstile: { secret: 't-secret', verifyUrl: server.url } } },
        logger,
      );
      expect(logger.errors.map((e) => e.fields?.['provider'])).to.deep.equal(['recaptcha', 'hcaptcha']);
      for (const provider of ['recaptcha', 'hcaptcha'] as const) {
        expect(await verifier.verify(provider, 'any-token-at-all'), provider).to.deep.equal({ success: false });
      }
      server.answer = { kind: 'json', body: { success: true } };
      expect(await verifier.verify('turnstile', 'token-3')).to.deep.equal({ success: true });
      expect(await verifier.verify('none', 'any-token-at-all')).to.deep.equal({ success: true });
      expect(await verifier.verify('none', '')).to.deep.equal({ success: false });
      expect(server.received.map((r) => r.form)).to.deep.equal([{ secret: 't-secret', response: 'token-3' }]);
    });
  });

  describe('when asked about a provider it does not know', () => {
    it('rejects the token (stored data from elsewhere must not open the gate)', async () => {
      const verifier = createCaptchaVerifier(unconfigured, new RecordingLogger());
      expect(await verifier.verify('captchaX' as never, 'x')).to.deep.equal({ success: false });
      expect(await verifier.verify('toString' as never, 'x')).to.deep.equal({ success: false });
    });
  });
});
