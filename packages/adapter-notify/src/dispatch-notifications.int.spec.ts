/**
 * The core dispatcher driving the real senders against real local servers: SMTP (smtp-server)
 * and a push webhook (node:http). Time between attempts is driven with a ManualClock.
 */
import { expect } from 'chai';
import {
  DispatchNotifications,
  ManualClock,
  MemoryNotificationOutbox,
  MemoryTenantRepository,
  silentLogger,
  type NotificationDeliveryPolicy,
  type NotificationSenders,
} from '@cms/core';
import { sampleNotificationJob } from '@cms/core/testing';
import { SmtpEmailSender } from './smtp-email.sender.js';
import { LocalSmtpServer } from './testing/local-smtp.server.js';
import { LocalWebhookReceiver } from './testing/local-webhook.receiver.js';
import { WebhookPushSender } from './webhook-push.sender.js';

const POLICY: NotificationDeliveryPolicy = { maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 60_000, leaseMs: 30_000, batchSize: 10, keepFinishedMs: 3_600_000 };

describe('DispatchNotifications with SMTP and webhook senders', () => {
  let smtp: LocalSmtpServer;
  let webhook: LocalWebhookReceiver;
  let clock: ManualClock;
  let outbox: MemoryNotificationOutbox;
  let tenants: MemoryTenantRepository;
  let senders: NotificationSenders;

  const dispatcher = (use: NotificationSenders = senders) => new DispatchNotifications(outbox, tenants, use, POLICY, clock, silentLogger);
  const jobs = () => outbox.listByTenant('acme');

  beforeEach(async () => {
    smtp = await LocalSmtpServer.start();
    webhook = await LocalWebhookReceiver.start();
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    outbox = new MemoryNotificationOutbox();
    tenants = new MemoryTenantRepository();
    await tenants.insert({ id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: ['boss@acme.test', 'ops@acme.test'], createdAt: clock.now() });
    senders = {
      email: new SmtpEmailSender({ url: smtp.url, from: 'CMS <cms@acme.test>', timeoutMs: 2000 }),
      push: new WebhookPushSender({ url: webhook.url, timeoutMs: 200 }),
    };
  });
  afterEach(async () => {
    await smtp.stop();
    await webhook.stop();
  });

  describe('when an admin e-mail job names no recipients', () => {
    it("mails the tenant's admin addresses over SMTP and marks the job sent", async () => {
      await outbox.enqueue([sampleNotificationJob({ recipients: [] })], clock.now());
      expect(await dispatcher().execute()).to.deep.include({ sent: 1 });
      expect(smtp.received).to.have.length(1);
      const [mail] = smtp.received;
      expect(mail?.mailFrom).to.equal('cms@acme.test');
      expect(mail?.rcptTo).to.deep.equal(['boss@acme.test', 'ops@acme.test']);
      expect(mail?.headers['subject']).to.equal('New submission: Contact us');
      expect(mail?.text).to.contain('Submission: bbbbbbbbbbbbbbbbbbbbbbbb\n').and.contain('\nname: Ada\nemail: ada@example.test\ntopics: a, b\n');
      expect((await jobs())[0]).to.deep.include({ status: 'sent', attempts: 1 });
    });
  });

  describe('when a submitter e-mail job carries the submitted address', () => {
    it('mails only that address', async () => {
      await outbox.enqueue([sampleNotificationJob({ audience: 'submitter', recipients: ['ada@example.test'] })], clock.now());
      await dispatcher().execute();
      expect(smtp.received.map((m) => m.rcptTo)).to.deep.equal([['ada@example.test']]);
      expect(smtp.received[0]?.headers['subject']).to.equal('We received your submission: Contact us');
    });
  });

  describe('when the SMTP server greylists one of two admin addresses', () => {
    it('mails the other at once and the greylisted one on the retry, each once', async () => {
      await smtp.stop();
      smtp = await LocalSmtpServer.start({ defer: { 'ops@acme.test': 1 } });
      senders = { email: new SmtpEmailSender({ url: smtp.url, from: 'CMS <cms@acme.test>', timeoutMs: 2000 }) };
      await outbox.enqueue([sampleNotificationJob({ recipients: [] })], clock.now());
      expect(await dispatcher().execute()).to.deep.include({ retried: 1 });
      expect((await jobs())[0]).to.deep.include({ status: 'pending', recipients: ['ops@acme.test'] });
      expect((await jobs())[0]?.lastError).to.match(/^the mail server refused 1 of 2 recipients: 451 /);
      clock.advance(1000);
      expect(await dispatcher().execute()).to.deep.include({ sent: 1 });
      expect(smtp.received.map((m) => m.rcptTo)).to.deep.equal([['boss@acme.test'], ['ops@acme.test']]);
      expect((await jobs())[0]).to.deep.include({ status: 'sent', attempts: 2 });
    });
  });

  describe('when a push job is due', () => {
    it('POSTs its JSON to the webhook and marks it sent', async () => {
      await outbox.enqueue([sampleNotificationJob({ channel: 'push', recipients: [] })], clock.now());
      await dispatcher().execute();
      const [job] = await jobs();
      expect(webhook.received).to.have.length(1);
      expect(webhook.received[0]?.body).to.deep.include({ id: job?.id, event: 'form.submission', tenantId: 'acme', audience: 'admin' });
      expect(webhook.received[0]?.body.submission).to.deep.include({ id: 'bbbbbbbbbbbbbbbbbbbbbbbb', submittedAt: '2026-03-01T09:59:59.123Z' });
      expect(job?.status).to.equal('sent');
    });
  });

  describe('when the webhook answers 500 and then 200', () => {
    it('retries after the back-off and is sent on the second attempt', async () => {
      webhook.answers = [{ status: 500 }, { status: 200 }];
      await outbox.enqueue([sampleNotificationJob({ channel: 'push', recipients: [] })], clock.now());
      expect(await dispatcher().execute()).to.deep.include({ retried: 1 });
      let [job] = await jobs();
      expect(job).to.deep.include({ status: 'pending', lastError: 'push webhook answered HTTP 500' });
      expect(job?.nextAttemptAt.toISOString()).to.equal('2026-03-01T10:00:01.000Z');
      clock.advance(999);
      expect((await dispatcher().execute()).claimed).to.equal(0);
      clock.advance(1);
      expect(await dispatcher().execute()).to.deep.include({ sent: 1 });
      [job] = await jobs();
      expect(job).to.deep.include({ status: 'sent', attempts: 2 });
      expect(webhook.received.map((r) => r.body.id)).to.deep.equal([job?.id, job?.id]);
    });
  });

  describe('when the webhook hangs', () => {
    it('times out each attempt, backs off, and marks the job failed after the last attempt', async () => {
      webhook.answers = ['hang'];
      await outbox.enqueue([sampleNotificationJob({ channel: 'push', recipients: [] })], clock.now());
      const waits: number[] = [];
      for (let attempt = 1; attempt <= POLICY.maxAttempts; attempt += 1) {
        const started = performance.now();
        await dispatcher().execute();
        expect(performance.now() - started, `attempt ${attempt} gave up near the 200 ms timeout`).to.be.within(180, 1500);
        const [job] = await jobs();
        if (attempt < POLICY.maxAttempts) {
          const wait = job!.nextAttemptAt.getTime() - clock.now().getTime();
          waits.push(wait);
          clock.advance(wait);
        }
      }
      expect(waits).to.deep.equal([1000, 2000]);
      expect(webhook.received).to.have.length(3);
      const [job] = await jobs();
      expect(job).to.deep.include({ status: 'failed', attempts: 3, lastError: 'push webhook gave no answer within 200 ms' });
      clock.advance(3_600_000);
      expect((await dispatcher().execute()).claimed).to.equal(0);
    });
  });

  describe('when a channel is not configured', () => {
    it('marks its jobs skipped and sends nothing on it', async () => {
      await outbox.enqueue([sampleNotificationJob({ channel: 'push', recipients: [] }), sampleNotificationJob()], clock.now());
      await dispatcher({ email: senders.email }).execute();
      expect(webhook.received).to.have.length(0);
      expect(smtp.received).to.have.length(1);
      const statuses = Object.fromEntries((await jobs()).map((job) => [job.channel, job.status]));
      expect(statuses).to.deep.equal({ push: 'skipped', email: 'sent' });
    });
  });

  describe('when two dispatchers share one outbox', () => {
    it('sends each job exactly once', async () => {
      const batch = Array.from({ length: 8 }, (_, i) => [
        sampleNotificationJob({ recipients: [`r${i}@acme.test`] }),
        sampleNotificationJob({ channel: 'push', recipients: [] }),
      ]).flat();
      await outbox.enqueue(batch, clock.now());
      const one = new DispatchNotifications(outbox, tenants, senders, { ...POLICY, batchSize: 3 }, clock, silentLogger);
      const two = new DispatchNotifications(outbox, tenants, senders, { ...POLICY, batchSize: 3 }, clock, silentLogger);
      for (let pass = 0; pass < 3; pass += 1) await Promise.all([one.execute(), two.execute()]);
      const rcpts = smtp.received.map((m) => m.rcptTo[0]);
      expect(rcpts).to.have.length(8);
      expect(new Set(rcpts).size).to.equal(8);
      const pushed = webhook.received.map((r) => r.body.id);
      expect(pushed).to.have.length(8);
      expect(new Set(pushed).size).to.equal(8);
      expect((await jobs()).every((job) => job.status === 'sent')).to.equal(true);
    });
  });
});
