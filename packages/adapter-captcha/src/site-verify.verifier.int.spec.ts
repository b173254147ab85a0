import { expect } from 'chai';
import type { Logger } from '@cms/core';
import { SITE_VERIFY_PROVIDERS } from './site-verify-providers.js';
import { SiteVerifyVerifier } from './site-verify.verifier.js';
import { LocalSiteVerifyServer } from './testing/local-site-verify.server.js';

class RecordingLogger implements Logger {
  readonly warnings: Array<{ message: string; fields: Record<string, unknown> | undefined }> = [];
  info() {}
  warn(message: string, fields?: Record<string, unknown>) {
    this.warnings.push({ message, fields });
  }
  error() {}
}

describe('SiteVerifyVerifier', () => {
  let server: LocalSiteVerifyServer;
  let logger: RecordingLogger;

  beforeEach(async () => {
    server = await LocalSiteVerifyServer.start();
    logger = new RecordingLogger();
  });
  afterEach(() => server.stop());

  for (const provider of SITE_VERIFY_PROVIDERS) {
    describe(`${provider}`, () => {
      const verifier = (timeoutMs = 2000) =>
        new SiteVerifyVerifier({ provider, secret: `${provider}-secret`, verifyUrl: server.url, timeoutMs }, logger);

      describe('when the provider accepts the token', () => {
        it('passes, after POSTing the secret, the token and the remote IP form-encoded', async () => {
          server.answer = { kind: 'json', body: { success: true, score: 0.7, hostname: 'example.test' } };
          const verdict = await verifier().verify('token-abc', { remoteIp: '203.0.113.7' });
          expect(verdict.success).to.equal(true);
          expect(server.received).to.have.length(1);
          expect(server.received[0]).to.deep.equal({
            method: 'POST',
            path: '/siteverify',
            contentType: 'application/x-www-form-urlencoded',
            form: { secret: `${provider}-secret`, response: 'token-abc', remoteip: '203.0.113.7' },
          });
        });

        it('sends an IPv4 client of a dual-stack listener (::ffff:a.b.c.d) as its IPv4 address, and an IPv6 one as it is', async () => {
          await verifier().verify('token-abc', { remoteIp: '::ffff:203.0.113.7' });
          await verifier().verify('token-abc', { remoteIp: '2001:db8::7' });
          expect(server.received.map((request) => request.form['remoteip'])).to.deep.equal(['203.0.113.7', '2001:db8::7']);
        });

        it('leaves remoteip out when the address is not known', async () => {
          await verifier().verify('token-abc');
          expect(server.received[0]?.form).to.deep.equal({ secret: `${provider}-secret`, response: 'token-abc' });
        });
      });

      describe('when the provider rejects the token', () => {
        it('rejects it without a warning (a bad token is the caller’s problem)', async () => {
          server.answer = { kind: 'json', body: { success: false, 'error-codes': ['invalid-input-response'] } };
          expect(await verifier().verify('bad-token')).to.deep.equal({ success: false });
          expect(logger.warnings).to.deep.equal([]);
        });
      });

      describe('when the provider says the secret is wrong', () => {
        it('rejects the token and warns the operator, naming the provider', async () => {
          server.answer = { kind: 'json', body: { success: false, 'error-codes': ['invalid-input-secret'] } };
          expect(await verifier().verify('token')).to.deep.equal({ success: false });
          expect(logger.warnings).to.have.length(1);
          expect(logger.warnings[0]?.fields).to.deep.include({ provider });
        });
      });

      describe('when the token is empty', () => {
        it('rejects it without calling the provider', async () => {
          expect(await verifier().verify('')).to.deep.equal({ success: false });
          expect(server.received).to.have.length(0);
        });
      });

      describe('when the provider answers 500', () => {
        it('rejects the token (fail closed) and logs why, without the token', async () => {
          server.answer = { kind: 'json', status: 500, body: { success: true } };
          expect(await verifier().verify('secret-token-value')).to.deep.equal({ success: false });
          expect(logger.warnings).to.have.length(1);
          expect(logger.warnings[0]?.fields).to.deep.equal({ provider, reason: 'HTTP 500' });
          expect(JSON.stringify(logger.warnings)).not.to.contain('secret-token-value');
        });
      });

      describe('when the provider answers garbage', () => {
        it('rejects a body that is not JSON', async () => {
          server.answer = { kind: 'raw', status: 200, body: '<html>oops</html>' };
          expect(await verifier().verify('token')).to.deep.equal({ success: false });
          expect(logger.warnings[0]?.fields).to.deep.equal({ provider, reason: 'answer is not JSON' });
        });

        it('rejects JSON without a boolean success', async () => {
          server.answer = { kind: 'json', body: { success: 'true' } };
          expect(await verifier().verify('token')).to.deep.equal({ success: false });
          server.answer = { kind: 'json', body: [true] };
          expect(await verifier().verify('token')).to.deep.equal({ success: false });
          expect(logger.warnings).to.have.length(2);
        });
      });

      describe('when the provider answers a redirect', () => {
        it('rejects the token without following it, so the secret never reaches the other origin', async () => {
          const elsewhere = await LocalSiteVerifyServer.start();
          try {
            elsewhere.answer = { kind: 'json', body: { success: true } };
            for (const status of [302, 307, 308]) {
              server.answer = { kind: 'redirect', status, location: elsewhere.url };
              expect(await verifier().verify('token')).to.deep.equal({ success: false });
            }
            expect(elsewhere.received).to.deep.equal([]);
            expect(logger.warnings.map((w) => w.fields?.['reason'])).to.deep.equal(['HTTP 302', 'HTTP 307', 'HTTP 308']);
          } finally {
            await elsewhere.stop();
          }
        });
      });

      describe('when the provider answers far more than a verdict', () => {
        it('rejects the token without reading the answer whole', async () => {
          server.answer = { kind: 'raw', status: 200, body: JSON.stringify({ success: true, padding: 'x'.repeat(70 * 1024) }) };
          expect(await verifier().verify('token')).to.deep.equal({ success: false });
          expect(logger.warnings[0]?.fields).to.deep.equal({ provider, reason: 'answer is larger than 65536 bytes' });
        });
      });

      describe('when the provider never answers', () => {
        it('gives up near the configured timeout and rejects the token', async () => {
          server.answer = { kind: 'hang' };
          const started = performance.now();
          const verdict = await verifier(250).verify('token');
          const elapsed = performance.now() - started;
          expect(verdict).to.deep.equal({ success: false });
          expect(elapsed).to.be.within(230, 1500);
          expect(server.received).to.have.length(1);
          expect(logger.warnings[0]?.fields).to.deep.equal({ provider, reason: 'no answer within 250 ms' });
        });

        it('gives up near the timeout when the answer starts but its body never ends', async () => {
          server.answer = { kind: 'stall-body' };
          const started = performance.now();
          const verdict = await verifier(250).verify('token');
          expect(verdict).to.deep.equal({ success: false });
          expect(performance.now() - started).to.be.within(230, 1500);
        });
      });
    });
  }

  describe('when the provider cannot be reached at all', () => {
    it('rejects the token', async () => {
      const url = server.url;
      await server.stop();
      server = await LocalSiteVerifyServer.start(); // afterEach stops this one
      const verifier = new SiteVerifyVerifier({ provider: 'turnstile', secret: 's', verifyUrl: url, timeoutMs: 2000 }, logger);
      expect(await verifier.verify('token')).to.deep.equal({ success: false });
      expect(logger.warnings).to.have.length(1);
      expect(logger.warnings[0]?.fields?.['reason']).to.match(/fetch failed/);
    });
  });

  describe('reCAPTCHA v3 scores', () => {
    const recaptcha = () => new SiteVerifyVerifier({ provider: 'recaptcha', secret: 's', verifyUrl: server.url, timeoutMs: 2000 }, logger);

    describe('when the provider accepts with a low score', () => {
      it('passes and returns the score for the caller to judge (no minScore here)', async () => {
        server.answer = { kind: 'json', body: { success: true, score: 0.1, action: 'submit' } };
        expect(await recaptcha().verify('token')).to.deep.equal({ success: true, score: 0.1 });
      });
    });

    describe('when the provider accepts with a high score', () => {
      it('returns that score', async () => {
        server.answer = { kind: 'json', body: { success: true, score: 0.9 } };
        expect(await recaptcha().verify('token')).to.deep.equal({ success: true, score: 0.9 });
      });

      it('takes both ends of 0 to 1 as scores', async () => {
        for (const score of [0, 1]) {
          server.answer = { kind: 'json', body: { success: true, score } };
          expect(await recaptcha().verify('token'), String(score)).to.deep.equal({ success: true, score });
        }
      });
    });

    describe('when the score is there but is no number from 0 to 1', () => {
      it('rejects the token (a malformed answer fails closed) instead of passing it without a score', async () => {
        for (const score of ['0.1', null, 5, -0.5, true]) {
          server.answer = { kind: 'json', body: { success: true, score } };
          expect(await recaptcha().verify('token'), JSON.stringify(score)).to.deep.equal({ success: false });
        }
        expect(logger.warnings).to.have.length(5);
        expect(logger.warnings[0]?.fields).to.deep.equal({ provider: 'recaptcha', reason: 'answer has a score that is not a number from 0 to 1' });
      });

      it('rejects an answer without a score (a v2 secret), which would skip every minScore', async () => {
        server.answer = { kind: 'json', body: { success: true } };
        expect(await recaptcha().verify('token')).to.deep.equal({ success: false });
        expect(logger.warnings[0]?.fields).to.deep.equal({ provider: 'recaptcha', reason: 'answer has no score (reCAPTCHA v3 answers one; is the secret a v2 one?)' });
      });
    });

    describe('when a score comes back from hCaptcha', () => {
      it('drops it: hCaptcha scores run the other way and are not minScore material', async () => {
        server.answer = { kind: 'json', body: { success: true, score: 0.9 } };
        const hcaptcha = new SiteVerifyVerifier({ provider: 'hcaptcha', secret: 's', verifyUrl: server.url, timeoutMs: 2000 }, logger);
        expect(await hcaptcha.verify('token')).to.deep.equal({ success: true });
      });
    });
  });
});
