/**
 * Issue 18 item 3, the outbox: three instances over one store, each with its own dispatchers.
 * Every notification job reaches the (real, loopback) push webhook exactly once, and so does every
 * webhook delivery its (real, signature-checking) receiver; and a dispatcher that dies holding a
 * lease has its job sent by another instance once the lease ends, never before.
 */
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DispatchLoop, DispatchNotifications, ManualClock, NotificationOutboxToken, PushSenderToken, type NotificationOutbox } from '@cms/core';
import { REAL_MONGO_URI } from '../testing/counted-service.js';
import { engagementClient } from '../testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver } from '../testing/standard-webhook.receiver.js';
import { startInstances, type ServiceInstances, type SharedStore } from '../testing/service-instances.js';
import { createForm, submitForm } from './form-requests.js';

const PUSH_ON_SUBMIT = { notifications: { enabled: true, push: { admin: { enabled: true }, submitter: { enabled: false } } } };
/** The service's lease: max(60 s, 3 × the send timeout). */
const LEASE_MS = 60_000;

async function until(probe: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

for (const store of ['mongo-double', 'real-mongo'] as const satisfies readonly SharedStore[]) {
  describe(`Three instances over one store: notification dispatch (${store})`, function () {
    this.timeout(30_000);
    let webhook: Server;
    let pushes: string[];
    let instances: ServiceInstances | undefined;
    before(function () {
      if (store === 'real-mongo' && !REAL_MONGO_URI) {
        process.stderr.write('\n  note: MONGODB_URI is not set: the three-dispatcher suite on a real MongoDB is skipped\n');
        this.skip();
      }
    });
    beforeEach(async () => {
      pushes = [];
      webhook = createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          pushes.push(body);
          res.writeHead(204).end();
        });
      });
      await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    });
    afterEach(async () => {
      await instances?.stop();
      instances = undefined;
      webhook?.closeAllConnections();
      await new Promise<void>((resolve) => (webhook ? webhook.close(() => resolve()) : resolve()));
    });
    const webhookUrl = () => `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/push`;
    const jobs = (i: number) => instances!.at(i).service.container.get<NotificationOutbox>(NotificationOutboxToken).listByTenant('tenant-a');

    it('sends each of 30 jobs exactly once while three dispatchers poll', async () => {
      instances = await startInstances(store, 3, { PUSH_WEBHOOK_URL: webhookUrl(), NOTIFY_POLL_MS: '10' });
      const form = await createForm(instances.at(0), 'notify-three', PUSH_ON_SUBMIT);
      const submissions = await Promise.all(Array.from({ length: 30 }, (_, i) => submitForm(instances!.at(i), form.id, { name: `n${i}` })));
      await until(async () => (await jobs(1)).filter((job) => job.status === 'sent').length === 30);
      // Time for a late duplicate to arrive, if any dispatcher were to send one.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(pushes).to.have.length(30);
      const perSubmission = submissions.map((submission) => pushes.filter((body) => body.includes(submission.id)).length);
      expect(perSubmission).to.deep.equal(new Array(30).fill(1));
      expect((await jobs(2)).map((job) => job.attempts)).to.deep.equal(new Array(30).fill(1));
    });

    it('delivers each of 30 webhook events exactly once while three webhook dispatchers poll', async () => {
      const receiver = await StandardWebhookReceiver.start();
      try {
        // A receiver that answers at once never times out, even on a loaded machine: a retry would be a second send by design.
        instances = await startInstances(store, 3, { ...FAST_WEBHOOKS, WEBHOOK_TIMEOUT_MS: '10000', NOTIFY_POLL_MS: '10' });
        const admin = await engagementClient(instances.at(0)).bearer('admin');
        const subscribed = await instances.at(0).call('POST', '/webhooks/create', { headers: admin, body: { url: receiver.url(), events: ['form.submitted'] } });
        expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(201);
        receiver.secret = subscribed.body.data.webhook.secret;
        const form = await createForm(instances.at(1), 'webhook-three');
        const submissions = await Promise.all(Array.from({ length: 30 }, (_, i) => submitForm(instances!.at(i), form.id, { name: `w${i}` })));
        await receiver.waitFor(30, 10_000);
        // Time for a late duplicate to arrive, if any dispatcher were to send one.
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(receiver.received).to.have.length(30);
        expect(receiver.received.every((request) => request.verified), 'every request signed').to.equal(true);
        expect(new Set(receiver.received.map((request) => request.id)).size, 'distinct webhook-ids').to.equal(30);
        const perSubmission = submissions.map((submission) => receiver.received.filter((request) => request.rawBody.includes(submission.id)).length);
        expect(perSubmission).to.deep.equal(new Array(30).fill(1));
      } finally {
        await receiver.stop();
      }
    });

    it('sends the job of a dispatcher that died holding its lease, from another instance, once the lease has ended', async () => {
      const clock = new ManualClock('2026-05-05T10:00:00.000Z');
      let claimed!: () => void;
      const claimedByA = new Promise<void>((resolve) => (claimed = resolve));
      // Instance 0's sender takes the job and never comes back: the process died mid-send.
      const dead = { send: () => (claimed(), new Promise<void>(() => {})) };
      instances = await startInstances(store, 3, { PUSH_WEBHOOK_URL: webhookUrl() }, { clock, configure: (container, index) => void (index === 0 && container.bind(PushSenderToken).toConstantValue(dead)) });
      // The dispatchers are driven by hand here, so who claims when is certain.
      await Promise.all(instances.all.map((api) => api.service.container.get(DispatchLoop).stop()));
      const dispatcher = (i: number) => instances!.at(i).service.container.get(DispatchNotifications);
      const form = await createForm(instances.at(1), 'notify-lease', PUSH_ON_SUBMIT);
      const submission = await submitForm(instances.at(2), form.id, { name: 'Ada' });

      void dispatcher(0).execute();
      await claimedByA;
      expect((await jobs(1))[0]).to.deep.include({ status: 'pending', attempts: 1 });
      clock.advance(LEASE_MS - 1);
      expect((await dispatcher(1).execute()).claimed, 'claimed while the lease holds').to.equal(0);
      clock.advance(1);
      expect(await dispatcher(2).execute()).to.deep.include({ claimed: 1, sent: 1 });
      expect(pushes).to.have.length(1);
      expect(pushes[0]).to.contain(submission.id);
      expect((await jobs(1))[0]).to.deep.include({ status: 'sent', attempts: 2 });
      expect((await dispatcher(1).execute()).claimed, 'nothing left to send').to.equal(0);
    });
  });
}
