/**
 * §3 end to end: a public submission on a form with notifications on is answered at once, and
 * the service then delivers its jobs — e-mail to a real SMTP server on loopback, push to a real
 * webhook — or, when the webhook hangs, retries with back-off and finally marks the job failed.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotificationOutboxToken, type NotificationJob, type NotificationOutbox } from '@cms/core';
import { SMTPServer } from 'smtp-server';
import { startTestService, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

interface ReceivedMail {
  readonly to: string[];
  readonly data: string;
}

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const listen = (server: { listen(port: number, host: string, done: () => void): unknown }) =>
  new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

describe('Submission notifications delivered by the running service', () => {
  let smtp: SMTPServer;
  let smtpPort: number;
  let mails: ReceivedMail[];
  let webhook: Server;
  let webhookUrl: string;
  let pushes: any[];
  let pushTraceparents: Array<string | undefined>;
  let hang: boolean;

  beforeEach(async () => {
    mails = [];
    pushes = [];
    pushTraceparents = [];
    hang = false;
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), data });
          done();
        });
      },
    });
    await listen(smtp.server);
    smtpPort = (smtp.server.address() as AddressInfo).port;
    webhook = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        pushes.push(JSON.parse(body));
        pushTraceparents.push(req.headers.traceparent as string | undefined);
        if (!hang) res.writeHead(204).end();
      });
    });
    await listen(webhook);
    webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/push`;
  });

  afterEach(async () => {
    webhook.closeAllConnections();
    await new Promise<void>((resolve) => webhook.close(() => resolve()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  /** Mail through the local SMTP server, push to the local webhook, a pass every 20 ms. */
  const bothChannels = () => ({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, SMTP_FROM: 'CMS <cms@acme.test>', PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '20' });

  const jobsOf = (api: TestService, submissionId: string) =>
    api.service.container
      .get<NotificationOutbox>(NotificationOutboxToken)
      .listByTenant('tenant-a')
      .then((jobs) => jobs.filter((job) => job.message.submissionId === submissionId));

  const settled = (api: TestService, submissionId: string, count: number) =>
    waitFor(async () => {
      const jobs = await jobsOf(api, submissionId);
      return jobs.length === count && jobs.every((job) => job.status !== 'pending') ? jobs : undefined;
    });

  describe('when SMTP and the webhook answer', () => {
    it('mails the admin recipients and the submitter, and pushes once per audience', async () => {
      const api = await startTestService(bothChannels());
      try {
        const form = await createForm(api, 'contact', {
          notifications: {
            enabled: true,
            email: { admin: { enabled: true, recipients: ['ops@acme.test'] }, submitter: { enabled: true } },
            push: { admin: { enabled: true }, submitter: { enabled: false } },
          },
        });
        const submission = await submitForm(api, form.id, { name: 'Ada', email: 'ada@example.org' });
        const jobs = await settled(api, submission.id, 3);
        expect(jobs.map((job) => [job.channel, job.audience, job.status, job.attempts])).to.have.deep.members([
          ['email', 'admin', 'sent', 1],
          ['email', 'submitter', 'sent', 1],
          ['push', 'admin', 'sent', 1],
        ]);
        expect(mails.map((mail) => mail.to).sort()).to.deep.equal([['ada@example.org'], ['ops@acme.test']]);
        for (const mail of mails) {
          expect(mail.data).to.contain('From: CMS <cms@acme.test>');
          expect(mail.data).to.contain(submission.id);
        }
        expect(pushes).to.have.length(1);
        expect(pushes[0]).to.deep.include({ tenantId: 'tenant-a' });
        expect(JSON.stringify(pushes[0])).to.contain(submission.id);
      } finally {
        await api.stop();
      }
    });
  });

  describe('when a form names no admin recipients, on the embedded store', () => {
    it('mails the tenant admin addresses CMS_ADMIN_EMAILS gives it (§2.3 default)', async () => {
      const api = await startTestService({ ...bothChannels(), CMS_ADMIN_EMAILS: 'tenant-a:ops@acme.test,tenant-a:owner@acme.test' });
      try {
        const form = await createForm(api, 'no-recipients', { notifications: { enabled: true, email: { admin: { enabled: true } } } });
        const submission = await submitForm(api, form.id, { name: 'Ada' });
        const jobs = await settled(api, submission.id, 1);
        expect(jobs.map((job) => [job.channel, job.audience, job.status])).to.deep.equal([['email', 'admin', 'sent']]);
        expect(mails.map((mail) => mail.to)).to.deep.equal([['ops@acme.test', 'owner@acme.test']]);
      } finally {
        await api.stop();
      }
    });
  });

  describe('when the submit carries a traceparent', () => {
    for (const storage of TEST_STORAGES) {
      it(`pushes with a child traceparent of the submit's trace, a new span per attempt (storage: ${storage})`, async () => {
        const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
        const incoming = `00-${traceId}-00f067aa0ba902b7-01`;
        hang = true; // the first attempt times out, so a retry shows a span of its own
        const api = await startTestService({ PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '20', NOTIFY_SEND_TIMEOUT_MS: '300', NOTIFY_RETRY_BASE_MS: '30' }, { storage });
        try {
          const form = await createForm(api, 'traced', { notifications: { enabled: true, push: { admin: { enabled: true }, submitter: { enabled: false } } } });
          const submission = await submitForm(api, form.id, { name: 'Ada' }, { headers: { traceparent: incoming } });
          await waitFor(async () => (pushes.length >= 1 ? true : undefined));
          hang = false;
          const [job] = (await settled(api, submission.id, 1)) as NotificationJob[];
          expect(job).to.deep.include({ status: 'sent', attempts: 2 });
          expect(pushTraceparents).to.have.length(2);
          for (const traceparent of pushTraceparents) expect(traceparent).to.match(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
          const spans = pushTraceparents.map((traceparent) => traceparent!.split('-')[2]);
          expect(new Set([...spans, '00f067aa0ba902b7', '0'.repeat(16)]).size).to.equal(4);
        } finally {
          webhook.closeAllConnections();
          await api.stop();
        }
      });
    }
  });

  describe('when the push webhook hangs while e-mail is due', () => {
    for (const storage of TEST_STORAGES) {
      it(`mails a later submission before the push times out, and still retries and fails the push (storage: ${storage})`, async () => {
        hang = true;
        const timeoutMs = 1500;
        const settings = { ...bothChannels(), NOTIFY_SEND_TIMEOUT_MS: String(timeoutMs), NOTIFY_RETRY_BASE_MS: '30', NOTIFY_MAX_ATTEMPTS: '2' };
        const api = await startTestService(settings, { storage });
        try {
          const adminOnly = { admin: { enabled: true }, submitter: { enabled: false } };
          const form = await createForm(api, 'slow-push', {
            notifications: { enabled: true, email: { ...adminOnly, admin: { enabled: true, recipients: ['ops@acme.test'] } }, push: adminOnly },
          });
          const first = await submitForm(api, form.id, { name: 'Ada' });
          await waitFor(async () => (pushes.length === 1 ? true : undefined));
          // Submitted while the push holds its request: its e-mail must not wait for the push's timeout.
          const submittedAt = Date.now();
          const second = await submitForm(api, form.id, { name: 'Grace' });
          await waitFor(async () => (mails.some((mail) => mail.data.includes(second.id)) ? true : undefined));
          const waited = Date.now() - submittedAt;
          expect(waited, `the e-mail waited ${waited} ms`).to.be.below(timeoutMs / 2);
          expect(pushes.filter((push) => JSON.stringify(push).includes(first.id)), 'the first push is still unanswered').to.have.length(1);

          const jobs = await settled(api, first.id, 2);
          expect(jobs.map((job) => [job.channel, job.status, job.attempts])).to.have.deep.members([
            ['email', 'sent', 1],
            ['push', 'failed', 2],
          ]);
          expect(jobs.find((job) => job.channel === 'push')?.lastError).to.contain(`${timeoutMs} ms`);
          expect(mails.filter((mail) => mail.data.includes(first.id))).to.have.length(1);
        } finally {
          webhook.closeAllConnections(); // ends the second submission's hanging push, so shutdown need not wait for it
          await api.stop();
        }
      });

      it(`mails a submission at once while more hanging pushes are due than there are places (storage: ${storage})`, async () => {
        hang = true;
        const timeoutMs = 1500;
        const api = await startTestService({ ...bothChannels(), NOTIFY_SEND_TIMEOUT_MS: String(timeoutMs) }, { storage });
        try {
          const adminOnly = { admin: { enabled: true }, submitter: { enabled: false } };
          const pushed = await createForm(api, 'push-backlog', { notifications: { enabled: true, push: adminOnly } });
          const mailed = await createForm(api, 'mail-after-backlog', {
            notifications: { enabled: true, email: { ...adminOnly, admin: { enabled: true, recipients: ['ops@acme.test'] } } },
          });
          for (let i = 0; i < 12; i += 1) await submitForm(api, pushed.id, { name: `Ada ${i}` });
          await waitFor(async () => (pushes.length >= 9 ? true : undefined));
          // Ten places: the pushes hold all but one, which is the e-mail's.
          const submittedAt = Date.now();
          const submission = await submitForm(api, mailed.id, { name: 'Grace' });
          await waitFor(async () => (mails.some((mail) => mail.data.includes(submission.id)) ? true : undefined));
          const waited = Date.now() - submittedAt;
          expect(waited, `the e-mail waited ${waited} ms`).to.be.below(timeoutMs / 2);
        } finally {
          webhook.closeAllConnections();
          await api.stop();
        }
      });
    }
  });

  describe('when the webhook never answers', () => {
    it('answers the submit while the push is still hanging (a submit that waited would time out)', async () => {
      hang = true;
      const api = await startTestService({ PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '20', NOTIFY_SEND_TIMEOUT_MS: '120000' });
      try {
        const form = await createForm(api, 'hanging-long', {
          notifications: { enabled: true, push: { admin: { enabled: true }, submitter: { enabled: false } } },
        });
        const submission = await submitForm(api, form.id, { name: 'Ada' });
        await waitFor(async () => (pushes.length === 1 ? true : undefined));
        const [job] = await jobsOf(api, submission.id);
        expect(job).to.deep.include({ status: 'pending', attempts: 1 });
        expect(job?.claimedUntil).to.be.instanceOf(Date);
      } finally {
        webhook.closeAllConnections(); // ends the hanging send, so shutdown need not wait two minutes
        await api.stop();
      }
    });

    it('retries with back-off and finally marks the job failed', async () => {
      hang = true;
      const api = await startTestService({
        PUSH_WEBHOOK_URL: webhookUrl,
        NOTIFY_POLL_MS: '20',
        NOTIFY_SEND_TIMEOUT_MS: '150',
        NOTIFY_RETRY_BASE_MS: '50',
        NOTIFY_MAX_ATTEMPTS: '3',
      });
      try {
        const form = await createForm(api, 'hanging', {
          notifications: { enabled: true, push: { admin: { enabled: true }, submitter: { enabled: false } } },
        });
        const submission = await submitForm(api, form.id, { name: 'Ada' });
        const [job] = (await settled(api, submission.id, 1)) as NotificationJob[];
        expect(job).to.deep.include({ channel: 'push', status: 'failed', attempts: 3 });
        expect(job?.lastError).to.contain('150 ms');
        expect(pushes).to.have.length(3);
        expect(new Set(pushes.map((push) => push.id))).to.deep.equal(new Set([job?.id]));
      } finally {
        await api.stop();
      }
    });
  });
});
