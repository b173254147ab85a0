/**
 * The running service delivers outbox jobs in the background: push to a real local webhook,
 * unconfigured e-mail skipped, and a shutdown that waits for the send in progress, and for a
 * submit's enqueue still on its way, before the store closes. (SMTP delivery through the
 * dispatcher is covered in adapter-notify.)
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotificationOutboxToken, type NotificationJob, type NotificationOutbox } from '@cms/core';
import { sampleNotificationJob } from '@cms/core/testing';
import { ServerTokens, type StorageLifecycle } from '../container/server-tokens.js';
import { startTestService, TEST_TENANTS } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

const tenantId = TEST_TENANTS.a;

async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('notification delivery in the running service', () => {
  let receiver: Server;
  let webhookUrl: string;
  let received: any[];
  let hang: boolean;

  beforeEach(async () => {
    received = [];
    hang = false;
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push(JSON.parse(body));
        if (hang) return;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterEach(async () => {
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  });

  describe('when push is configured and e-mail is not', () => {
    it('pushes the push job and marks the e-mail job skipped, without being asked', async () => {
      const api = await startTestService({ PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '20' });
      try {
        const outbox = api.service.container.get<NotificationOutbox>(NotificationOutboxToken);
        await outbox.enqueue([sampleNotificationJob({ tenantId, channel: 'push', recipients: [] }), sampleNotificationJob({ tenantId })], new Date());
        const settled = await waitFor(async () => {
          const jobs = await outbox.listByTenant(tenantId);
          return jobs.every((job) => job.status !== 'pending') ? jobs : undefined;
        });
        const byChannel = Object.fromEntries(settled.map((job) => [job.channel, job]));
        expect(byChannel['push']).to.deep.include({ status: 'sent', attempts: 1 });
        expect(byChannel['email']).to.deep.include({ status: 'skipped', lastError: 'email channel is not configured' });
        expect(received.map((body) => body.id)).to.deep.equal([byChannel['push']?.id]);
        expect(received[0]).to.deep.include({ event: 'form.submission', tenantId });
      } finally {
        await api.stop();
      }
    });
  });

  describe('when the service is stopped while a submit’s notification jobs are on their way to the outbox', () => {
    it('closes the store only once they are in it', async () => {
      let atClose: NotificationJob[] | undefined;
      let outbox!: NotificationOutbox;
      const api = await startTestService(
        { PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '60000' },
        {
          configure: (container) => {
            const storage: StorageLifecycle = { kind: 'memory', ready: async () => true, close: async () => void (atClose = await outbox.listByTenant(tenantId)) };
            container.rebind<StorageLifecycle>(ServerTokens.Storage).toConstantValue(storage);
          },
        },
      );
      outbox = api.service.container.get<NotificationOutbox>(NotificationOutboxToken);
      const form = await createForm(api, 'notified-at-shutdown', { notifications: { enabled: true, push: { admin: { enabled: true } } } });
      // The enqueue takes 200 ms, from after the submit's answer: the service is stopped meanwhile.
      const enqueue = outbox.enqueue;
      let started!: () => void;
      const enqueueStarted = new Promise<void>((resolve) => (started = resolve));
      outbox.enqueue = async function (this: NotificationOutbox, ...args) {
        started();
        await new Promise((resolve) => setTimeout(resolve, 200));
        return enqueue.apply(this, args);
      };
      const submission = await submitForm(api, form.id, { name: 'Ada' });
      await enqueueStarted;
      await api.stop();
      expect(atClose?.map((job) => [job.channel, job.message.submissionId])).to.deep.equal([['push', submission.id]]);
    });
  });

  describe('when the webhook hangs and the service is stopped mid-send', () => {
    it('keeps answering HTTP meanwhile, and closes the store only after the attempt is recorded', async () => {
      hang = true;
      let atClose: NotificationJob[] | undefined;
      let outbox!: NotificationOutbox;
      const api = await startTestService(
        { PUSH_WEBHOOK_URL: webhookUrl, NOTIFY_POLL_MS: '20', NOTIFY_SEND_TIMEOUT_MS: '300' },
        {
          configure: (container) => {
            const storage: StorageLifecycle = {
              kind: 'memory',
              ready: async () => true,
              close: async () => {
                atClose = await outbox.listByTenant(tenantId);
              },
            };
            container.rebind<StorageLifecycle>(ServerTokens.Storage).toConstantValue(storage);
          },
        },
      );
      outbox = api.service.container.get<NotificationOutbox>(NotificationOutboxToken);
      await outbox.enqueue([sampleNotificationJob({ tenantId, channel: 'push', recipients: [] })], new Date());
      await waitFor(() => (received.length > 0 ? true : undefined));

      const started = performance.now();
      const health = await fetch(`${api.service.url}/healthz`);
      expect(health.status).to.equal(200);
      expect(performance.now() - started).to.be.below(200);

      await api.stop();
      expect(atClose).to.have.length(1);
      expect(atClose?.[0]).to.deep.include({ status: 'pending', attempts: 1, claimedUntil: null, lastError: 'push webhook gave no answer within 300 ms' });
      expect(received).to.have.length(1);
    });
  });
});
