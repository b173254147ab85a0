import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CaptchaVerifierToken, type CaptchaVerifier } from '@cms/core';
import { CapturingLogger, startTestService } from '../testing/test-service.js';

describe('captchaModule', () => {
  describe('when the service starts with no CAPTCHA secret', () => {
    it('warns once per provider at start-up and lets any non-empty token through', async () => {
      const logger = new CapturingLogger();
      const api = await startTestService({}, { logger });
      try {
        const warnings = logger.lines.filter((line) => line.level === 'warn' && String(line.message).startsWith('CAPTCHA provider'));
        expect(warnings.map((line) => line['provider'])).to.deep.equal(['recaptcha', 'hcaptcha', 'turnstile']);
        const verifier = api.service.container.get<CaptchaVerifier>(CaptchaVerifierToken);
        expect(await verifier.verify('recaptcha', 'anything')).to.deep.equal({ success: true });
        expect(await verifier.verify('none', '')).to.deep.equal({ success: false });
        expect(logger.lines.filter((line) => line.level === 'warn' && String(line.message).includes('CAPTCHA'))).to.have.length(3);
      } finally {
        await api.stop();
      }
    });
  });

  describe('when reCAPTCHA has a secret and a verify URL', () => {
    let provider: Server;
    let url: string;
    const forms: string[] = [];

    before(async () => {
      provider = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          forms.push(body);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ success: true, score: 0.3 }));
        });
      });
      await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
      url = `http://127.0.0.1:${(provider.address() as AddressInfo).port}/recaptcha/api/siteverify`;
    });
    after(() => new Promise<void>((resolve) => provider.close(() => resolve())));

    it('verifies reCAPTCHA tokens at that URL with that secret and returns the score', async () => {
      const logger = new CapturingLogger();
      const api = await startTestService({ CAPTCHA_RECAPTCHA_SECRET: 'rc-secret', CAPTCHA_RECAPTCHA_VERIFY_URL: url }, { logger });
      try {
        const verifier = api.service.container.get<CaptchaVerifier>(CaptchaVerifierToken);
        expect(await verifier.verify('recaptcha', 'tok', { remoteIp: '127.0.0.1' })).to.deep.equal({ success: true, score: 0.3 });
        expect(forms).to.deep.equal(['secret=rc-secret&response=tok&remoteip=127.0.0.1']);
        const warned = logger.lines
          .filter((line) => line.level === 'warn' && String(line.message).startsWith('CAPTCHA provider'))
          .map((line) => line['provider']);
        expect(warned).to.deep.equal(['hcaptcha', 'turnstile']);
      } finally {
        await api.stop();
      }
    });
  });
});
