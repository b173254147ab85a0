/**
 * CONTRACT §1 version 1.2 end to end: weak bearer keys stop the built service before it listens,
 * and with NODE_ENV=production an unconfigured CAPTCHA provider fails closed on every gate.
 */
import { expect } from 'chai';
import { startBuiltService } from '../testing/built-service.js';
import { engagementClient, guest } from '../testing/engagement-client.js';
import { CapturingLogger, startTestService, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

interface Started {
  /** Exit code when the process stopped by itself; undefined when it was listening. */
  readonly exitCode: number | null | undefined;
  readonly stderr: string;
  readonly healthz?: number;
}

/** Waits up to 3 s for `condition`. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; waited < 3000 && !condition(); waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Starts the built service with `env`: its exit when it stops by itself, else its /healthz status (then stops it). */
async function startBuilt(env: Record<string, string>): Promise<Started> {
  const service = await startBuiltService(env);
  if (service.origin === undefined) return { exitCode: await service.exited, stderr: service.stderr() };
  try {
    const healthz = (await fetch(`${service.origin}/healthz`)).status;
    return { exitCode: undefined, stderr: service.stderr(), healthz };
  } finally {
    await service.stop();
  }
}

describe('Production configuration (built service)', function () {
  this.timeout(30_000);

  describe('when CMS_JWT_SECRET is 31 bytes', () => {
    it('exits non-zero before listening, with one line naming the variable', async () => {
      const started = await startBuilt({ CMS_JWT_SECRET: 'x'.repeat(31), NODE_ENV: 'production' });
      expect(started.exitCode).to.equal(1);
      expect(started.stderr).to.match(/^Configuration error: CMS_JWT_SECRET must be at least 32 bytes for HS256 \(RFC 7518 §3\.2\), got 31: .*openssl rand -base64 48/m);
      expect(started.stderr).not.to.contain('listening');
    });
  });

  describe('when CMS_JWT_SECRET is 32 bytes', () => {
    it('serves, and says bearer tokens are enabled', async () => {
      const started = await startBuilt({ CMS_JWT_SECRET: 'y'.repeat(32), NODE_ENV: 'production', CAPTCHA_PROVIDER_DEFAULT: 'none' });
      expect(started.exitCode, started.stderr).to.equal(undefined);
      expect(started.healthz).to.equal(200);
      expect(started.stderr).to.contain('Bearer tokens: enabled (HS256, key from CMS_JWT_SECRET)');
    });
  });

  describe('when no bearer key is set', () => {
    it('serves, and says bearer tokens are disabled', async () => {
      const started = await startBuilt({});
      expect(started.healthz).to.equal(200);
      expect(started.stderr).to.contain('Bearer tokens: disabled (set CMS_JWT_SECRET or CMS_JWT_PUBLIC_KEY)');
    });
  });

  describe('when neither CMS_API_KEYS nor MONGODB_URI is set', () => {
    it('says the store lives as long as the process, prints the generated key once, which works; ignores SIGHUP and drains on SIGINT', async () => {
      const service = await startBuiltService({});
      try {
        expect(service.origin, service.stderr()).to.be.a('string');
        // The lines after the one that says it listens.
        await until(() => service.stderr().includes('API key for tenant'));
        const stderr = service.stderr();
        // CONTRACT §4 (embedded store) and §1.1 (a random key for tenant default, printed once).
        expect(stderr).to.contain('Embedded in-memory store: data lives only as long as this process.');
        const printed = [...stderr.matchAll(/API key for tenant "default" \(shown once\): (\S+)/g)].map((match) => match[1]);
        expect(printed).to.have.length(1);
        const read = await fetch(`${service.origin}/cms/reports/dashboardConfig`, { headers: { 'x-api-key': printed[0]!, 'x-user-id': 'u1' } });
        expect(read.status).to.equal(200);
        service.child.kill('SIGHUP'); // logrotate's postrotate: not a reason to stop
        await until(() => service.stderr().includes('SIGHUP received: ignored'));
        expect(service.stderr()).to.contain('SIGHUP received: ignored');
        expect((await fetch(`${service.origin}/healthz`)).status).to.equal(200);
        service.child.kill('SIGINT');
        expect(await service.exited).to.equal(0);
        expect(service.stderr()).to.contain('SIGINT received: finishing in-flight requests');
      } finally {
        if (service.child.exitCode === null && service.child.signalCode === null) await service.stop();
      }
    });
  });
});

describe('CAPTCHA provider without its secret', () => {
  const world = async (env: Record<string, string>) => {
    const logger = new CapturingLogger();
    const api = await startTestService(env, { logger });
    return { api, logger, client: engagementClient(api) };
  };

  describe('with NODE_ENV=production', () => {
    let api: TestService;
    let logger: CapturingLogger;
    before(async () => ({ api, logger } = await world({ NODE_ENV: 'production' })));
    after(() => api.stop());

    it('logs an error at start-up per provider, naming the missing variable', () => {
      const errors = logger.lines.filter((line) => line.level === 'error').map((line) => line.message);
      for (const variable of ['CAPTCHA_RECAPTCHA_SECRET', 'CAPTCHA_HCAPTCHA_SECRET', 'CAPTCHA_TURNSTILE_SECRET']) {
        expect(errors.some((message) => message.includes(`(${variable})`)), variable).to.equal(true);
      }
    });

    it('refuses a guest reaction with 401 captchaToken is invalid, and stores nothing', async () => {
      const client = engagementClient(api);
      const article = await client.article();
      const res = await api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-prod-0001', 'any-token-at-all'), body: { type: 'like' } });
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, statusCode: 401, message: 'captchaToken is invalid', data: null });
      const read = await api.call('GET', `/articles/getById/${article.id}`);
      expect(read.body.data.article).to.include({ likes: 0, dislikes: 0 });
    });

    it("refuses a submission to a form gated by that provider with the gate's rejection, 403 CAPTCHA verification failed", async () => {
      const form = await createForm(api, 'prod-gated', { captcha: { enabled: true, provider: 'hcaptcha' } });
      const res = await api.call('POST', `/forms/${form.id}/submit`, { headers: { 'x-captcha-token': 'any-token-at-all' }, body: { values: { name: 'Ada' } } });
      expect(res.status).to.equal(403);
      expect(res.body).to.deep.equal({ success: false, statusCode: 403, message: 'CAPTCHA verification failed', data: null });
    });
  });

  describe('outside production', () => {
    it('accepts any non-empty token, as before, and only warns', async () => {
      const { api, logger, client } = await world({});
      try {
        expect(logger.lines.filter((line) => line.level === 'error')).to.deep.equal([]);
        expect(logger.lines.filter((line) => line.level === 'warn' && line.message.includes('CAPTCHA_RECAPTCHA_SECRET'))).to.have.length(1);
        const article = await client.article();
        const res = await api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-dev-0001', 'any-token-at-all'), body: { type: 'like' } });
        expect(res.status).to.equal(200);
        expect(res.body.data).to.include({ likes: 1 });
      } finally {
        await api.stop();
      }
    });
  });

  describe('with the provider "none" chosen explicitly in production', () => {
    it('accepts any non-empty token for guests and forms gated by none', async () => {
      const { api, client } = await world({ NODE_ENV: 'production', CAPTCHA_PROVIDER_DEFAULT: 'none' });
      try {
        const article = await client.article();
        const res = await api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-none-001', 'any-token-at-all'), body: { type: 'dislike' } });
        expect(res.status).to.equal(200);
        expect(res.body.data).to.include({ dislikes: 1 });
        const form = await createForm(api, 'none-gated', { captcha: { enabled: true, provider: 'none' } });
        const submitted = await submitForm(api, form.id, { name: 'Ada' }, { headers: { 'x-captcha-token': 'any-token-at-all' } });
        expect(submitted.id).to.match(/^[a-f0-9]{24}$/);
      } finally {
        await api.stop();
      }
    });
  });
});
