/**
 * The running service delivers outbox jobs in the background: push to a real local webhook,
 * unconfigured e-mail skipped, and a shutdown that waits for the send in progress before the
 * store closes. (SMTP delivery through the dispatcher is covered in adapter-notify.)
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NotificationOutboxToken, type NotificationJob, type NotificationOutbox } from '@cms/core';
import { sampleNotificationJob } from '@cms/core/testing';
import { ServerTokens, type StorageLifecycle } from '../container/server-tokens.js';
import { startTestService, TEST_TENANTS } from '../testing/test-service.js';

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
