import { expect } from 'chai';
import { ConfigError } from './env-reader.js';
import { loadConfig } from './service-config.js';

describe('loadNotifyConfig', () => {
  describe('when nothing is set', () => {
    it('leaves both channels unconfigured and uses the documented defaults', () => {
      expect(loadConfig({}).notify).to.deep.equal({
        email: undefined,
        push: undefined,
        maxAttempts: 5,
        retryBaseMs: 30_000,
        retryMaxMs: 3_600_000,
        pollMs: 1000,
        sendTimeoutMs: 10_000,
        leaseMs: 60_000,
        batchSize: 10,
        keepFinishedMs: 86_400_000,
      });
    });
  });

  describe('when the channels and limits are set', () => {
    it('reads them, and stretches the lease to three send timeouts when that is longer than a minute', () => {
      const notify = loadConfig({
        SMTP_URL: 'smtps://mailer:secret@mail.example.com:465',
        SMTP_FROM: 'CMS <cms@example.com>',
        PUSH_WEBHOOK_URL: 'https://push.example.com/hook?token=abc',
        NOTIFY_MAX_ATTEMPTS: '3',
        NOTIFY_RETRY_BASE_MS: '500',
        NOTIFY_RETRY_MAX_MS: '4000',
        NOTIFY_POLL_MS: '50',
        NOTIFY_SEND_TIMEOUT_MS: '30000',
        NOTIFY_KEEP_HOURS: '0',
      }).notify;
      expect(notify).to.deep.equal({
        email: { smtpUrl: 'smtps://mailer:secret@mail.example.com:465', from: 'CMS <cms@example.com>' },
        push: { webhookUrl: 'https://push.example.com/hook?token=abc' },
        maxAttempts: 3,
        retryBaseMs: 500,
        retryMaxMs: 4000,
        pollMs: 50,
        sendTimeoutMs: 30_000,
        leaseMs: 90_000,
        batchSize: 10,
        keepFinishedMs: 0,
      });
    });

    it('raises the default retry ceiling to a base above an hour', () => {
      expect(loadConfig({ NOTIFY_RETRY_BASE_MS: '7200000' }).notify.retryMaxMs).to.equal(7_200_000);
    });
  });

  describe('when a setting is bad', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ SMTP_URL: 'http://mail.example.com', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://mail.example.com' }, 'SMTP_FROM'],
      [{ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'not an address' }, 'SMTP_FROM'],
      [{ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'CMS <cms@example.com>\r\nBcc: x@y.z' }, 'SMTP_FROM'],
      [{ SMTP_URL: 'smtp://127.0.0.1:notaport', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://[::1', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://user:s3cr3t@127.0.0.1:99999', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://se cret:x@127.0.0.1:25', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ SMTP_URL: 'smtp://user:pa%ZZss@127.0.0.1:25', SMTP_FROM: 'a@b.c' }, 'SMTP_URL'],
      [{ PUSH_WEBHOOK_URL: 'ftp://push.example.com' }, 'PUSH_WEBHOOK_URL'],
      [{ PUSH_WEBHOOK_URL: 'http://:::' }, 'PUSH_WEBHOOK_URL'],
      [{ PUSH_WEBHOOK_URL: 'http://127.0.0.1:99999/x' }, 'PUSH_WEBHOOK_URL'],
      [{ PUSH_WEBHOOK_URL: 'http://user:tok@127.0.0.1:3175/push' }, 'PUSH_WEBHOOK_URL'],
      [{ NOTIFY_MAX_ATTEMPTS: '0' }, 'NOTIFY_MAX_ATTEMPTS'],
      [{ NOTIFY_KEEP_HOURS: '8761' }, 'NOTIFY_KEEP_HOURS'],
      [{ NOTIFY_RETRY_BASE_MS: 'soon' }, 'NOTIFY_RETRY_BASE_MS'],
      [{ NOTIFY_RETRY_BASE_MS: '5000', NOTIFY_RETRY_MAX_MS: '1000' }, 'NOTIFY_RETRY_MAX_MS'],
      [{ NOTIFY_POLL_MS: '1' }, 'NOTIFY_POLL_MS'],
      [{ NOTIFY_SEND_TIMEOUT_MS: '999999' }, 'NOTIFY_SEND_TIMEOUT_MS'],
    ];
    for (const [env, name] of cases) {
      it(`stops with a message naming ${name} for ${JSON.stringify(env)}`, () => {
        expect(() => loadConfig(env)).to.throw(ConfigError, new RegExp(`^${name} `));
      });
    }

    it('never repeats a URL that may carry a password or a token', () => {
      for (const env of [{ SMTP_URL: 'smtp://user:s3cr3t@127.0.0.1:99999', SMTP_FROM: 'a@b.c' }, { PUSH_WEBHOOK_URL: 'http://user:s3cr3t@127.0.0.1/push' }]) {
        expect(() => loadConfig(env)).to.throw(ConfigError).with.property('message').that.does.not.contain('s3cr3t');
      }
    });
  });
});
