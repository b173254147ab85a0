/**
 * §7 delivery end to end: a real receiver on loopback verifies every request with the
 * `standardwebhooks` reference library. Each event of today's routes arrives once with a stable
 * webhook-id; receivers that fail, hang past WEBHOOK_TIMEOUT_MS or redirect are retried on the
 * NOTIFY_* back-off and then failed; the delivery log says what happened.
 */
import { expect } from 'chai';
import { engagementClient, type Headers } from '../testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver } from '../testing/standard-webhook.receiver.js';
import { TEST_KEYS, TEST_STORAGES, TEST_TENANTS, type TestService } from '../testing/test-service.js';
import { firstOfEach, relatedRecords, webhookSuite } from './webhook-suite.js';
import { createForm, formBody } from './form-requests.js';


const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const storage of TEST_STORAGES) {
  describe(`Webhook delivery (storage: ${storage})`, () => {
    // Six places, three per webhook: a few events fill them, as fifty would in production.
    const suite = webhookSuite(storage, { WEBHOOK_BATCH_SIZE: '6', WEBHOOK_IN_FLIGHT_PER_WEBHOOK: '3' });
    let api: TestService;
    let admin: Headers;
    let receiver: StandardWebhookReceiver;
    beforeEach(() => ({ api, admin, receiver } = suite));
    const subscribe = (events: string[], url?: string) => suite.subscribe(events, url);
    const deliveries = async (id: string) => (await api.call('GET', `/webhooks/${id}/deliveries`, { headers: admin })).body;
    /** Runs `test` with a receiver that answers at once, subscribed to tenant b's `form.created`; removes both after. */
    const withOtherTenantReceiver = async (test: (fast: StandardWebhookReceiver, webhookId: string, asB: { key: string; headers: Headers }) => Promise<void>) => {
      const fast = await StandardWebhookReceiver.start();
      const asB = { key: TEST_KEYS.b, headers: await engagementClient(api).bearer('admin', 'admin-b', TEST_TENANTS.b) };
      let webhookId: string | undefined;
      try {
        const created = await api.call('POST', '/webhooks/create', { ...asB, body: { url: fast.url(), events: ['form.created'] } });
        webhookId = created.body.data.webhook.id as string;
        fast.secret = created.body.data.webhook.secret;
        await test(fast, webhookId, asB);
      } finally {
        if (webhookId) await api.call('DELETE', `/webhooks/delete/${webhookId}`, asB);
        await fast.stop();
      }
    };

    it('sends each event of today\'s routes once, signed so that standardwebhooks verifies it, with the record as data', async () => {
      const webhookId = await subscribe(['*']);
      const engagement = engagementClient(api);
      const { company, person, acme, ada, article, comment } = await relatedRecords(api, 'wh');
      const reader = { 'x-user-id': 'reader-1' };
      await api.call('PUT', `/articles/${article.id}/reaction`, { headers: reader, body: { type: 'like' } });
      await api.call('PUT', `/articles/${article.id}/reaction`, { headers: reader, body: { type: 'like' } }); // no change: no event
      await api.call('DELETE', `/articles/${article.id}/reaction`, { headers: reader });
      await api.call('PUT', `/articles/comments/${comment.id}/approve`, { headers: await engagement.bearer('editor') }); // again: no event
      await api.call('POST', '/forms/create', { body: { slug: 'wh-company' } }); // refused: no event
      const again = await api.call('POST', `/forms/submission/${ada.id}/relations/employer/connect`, { body: { relatedSubmissionId: acme.id } });
      expect(again.status).to.equal(200); // connected already: no event

      const expected = [
        'form.created', 'form.created', 'form.submitted', 'form.submitted', 'submission.relation.connected',
        'article.created', 'article.reaction.changed', 'article.reaction.changed', 'comment.created', 'comment.approved',
      ];
      await receiver.waitFor(expected.length);
      await settle(150);
      const received = firstOfEach(receiver.received);
      expect(received.map((request) => request.body.type).sort()).to.deep.equal([...expected].sort());
      for (const request of receiver.received) expect(request.verified, request.rawBody).to.equal(true);
      const byType = (type: string) => received.filter((request) => request.body.type === type).map((request) => request.body.data);
      expect(byType('form.created').map((form) => form.id)).to.have.members([company.id, person.id]);
      // `data` is the form as the API answers it, its tenant included (§7: "the form").
      expect(byType('form.created').find((form) => form.id === company.id)).to.deep.equal(company);
      expect(byType('submission.relation.connected')[0]).to.deep.include({ id: ada.id, relations: { employer: acme.id } });
      expect(byType('article.reaction.changed')).to.have.deep.members([
        { articleId: article.id, likes: 1, dislikes: 0 },
        { articleId: article.id, likes: 0, dislikes: 0 },
      ]);
      expect(byType('comment.approved')[0]).to.deep.include({ id: comment.id, status: 'approved' });
      const first = received[0]!;
      expect(first.body.timestamp).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(Math.abs(Number(first.timestamp) - Date.now() / 1000)).to.be.below(10);

      const log = await deliveries(webhookId);
      expect(log.message).to.equal('Deliveries retrieved successfully');
      expect(log.data.deliveries).to.have.length(expected.length);
      expect(log.data.deliveries.every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.lastStatusCode === 204 && d.deliveredAt)).to.equal(true);
      expect(Object.keys(log.data.deliveries[0])).to.have.members(['eventId', 'type', 'status', 'attempts', 'lastStatusCode', 'lastError', 'createdAt', 'deliveredAt']);
      const metrics = await (await fetch(`${api.service.url}/metrics`)).text();
      expect(metrics).to.include('# TYPE webhook_jobs gauge');
      expect(metrics).to.match(new RegExp(`^webhook_jobs\\{status="delivered"\\} ${expected.length}$`, 'm'));
      expect(metrics).to.match(/^webhook_jobs\{status="unconfirmed"\} 0$/m);
    });

    it('retries a receiver that answers 500, then 200, under the same webhook-id, and logs two attempts', async () => {
      receiver.answers = [{ status: 500 }, { status: 200 }];
      const webhookId = await subscribe(['form.created']);
      await createForm(api, 'wh-retry');
      const [failed, delivered] = await receiver.waitFor(2);
      await settle(150);
      expect(receiver.received).to.have.length(2);
      expect(delivered!.id).to.equal(failed!.id);
      expect(delivered!.rawBody).to.equal(failed!.rawBody);
      expect([failed!.verified, delivered!.verified]).to.deep.equal([true, true]);
      const [entry] = (await deliveries(webhookId)).data.deliveries;
      expect(entry).to.deep.include({ eventId: failed!.id, status: 'delivered', attempts: 2, lastStatusCode: 200, lastError: null });
    });

    it('logs a delivery whose webhook was disabled while its retry was pending with the one request sent and its HTTP 500', async () => {
      let release!: () => void;
      receiver.answers = [{ status: 500, heldUntil: new Promise<void>((resolve) => (release = resolve)) }, { status: 200 }];
      const webhookId = await subscribe(['form.created']);
      await createForm(api, 'wh-disabled-retry');
      await receiver.waitFor(1);
      const disabled = await api.call('PATCH', `/webhooks/update/${webhookId}`, { headers: admin, body: { enabled: false } });
      expect(disabled.status).to.equal(200);
      release(); // the 500 comes after the webhook was disabled: its retry finds it so
      let entry: any;
      for (let waited = 0; (entry = (await deliveries(webhookId)).data.deliveries[0])?.status !== 'failed' && waited < 5000; waited += 20) await settle(20);
      expect(entry).to.deep.include({ status: 'failed', attempts: 1, lastStatusCode: 500, lastError: 'webhook is disabled', deliveredAt: null });
      expect(receiver.received).to.have.length(1);
    });

    it('times out a receiver that hangs past WEBHOOK_TIMEOUT_MS and retries under the same webhook-id', async () => {
      receiver.answers = ['hang', { status: 202 }];
      const webhookId = await subscribe(['form.created']);
      await createForm(api, 'wh-hang');
      const [hung, answered] = await receiver.waitFor(2, 5000);
      expect(answered!.id).to.equal(hung!.id);
      await settle(100);
      const [entry] = (await deliveries(webhookId)).data.deliveries;
      expect(entry).to.deep.include({ status: 'delivered', attempts: 2, lastStatusCode: 202 });
    });

    it("keeps delivering another tenant's events while a receiver hangs, and still retries and fails the hanging one", async () => {
      receiver.answers = ['hang'];
      const slowWebhook = await subscribe(['form.created']);
      await withOtherTenantReceiver(async (fast, fastWebhook, asB) => {
        await createForm(api, 'wh-slow-1');
        await createForm(api, 'wh-fast-1', {}, { key: TEST_KEYS.b });
        await receiver.waitFor(1);
        // Staged while the slow receiver holds its request: they must not wait for its timeout.
        const stagedAt = Date.now();
        await createForm(api, 'wh-fast-2', {}, { key: TEST_KEYS.b });
        await createForm(api, 'wh-fast-3', {}, { key: TEST_KEYS.b });
        await fast.waitFor(3, 5000);
        const waited = Date.now() - stagedAt;
        const timeoutMs = Number(FAST_WEBHOOKS.WEBHOOK_TIMEOUT_MS);
        expect(waited, `the fast receiver waited ${waited} ms`).to.be.below(timeoutMs / 2);
        expect(receiver.received, 'the slow request is still unanswered').to.have.length(1);
        expect(fast.received.map((request) => request.verified)).to.deep.equal([true, true, true]);

        await receiver.waitFor(3, 4 * timeoutMs);
        let entry: any;
        for (let polled = 0; (entry = (await deliveries(slowWebhook)).data.deliveries[0])?.status !== 'failed' && polled < timeoutMs; polled += 20) await settle(20);
        expect(new Set(receiver.received.map((request) => request.id)).size).to.equal(1);
        expect(entry).to.deep.include({ status: 'failed', attempts: 3, lastStatusCode: null, lastError: `webhook receiver gave no answer within ${timeoutMs} ms` });
        const fastLog = await api.call('GET', `/webhooks/${fastWebhook}/deliveries`, asB);
        expect(fastLog.body.data.deliveries.map((d: any) => [d.status, d.attempts])).to.deep.equal([['delivered', 1], ['delivered', 1], ['delivered', 1]]);
      });
    });

    /** Tenant b creates a form: its receiver gets the signed event well within a timeout of the hanging one. */
    const expectDeliveredAtOnce = async (fast: StandardWebhookReceiver, slug: string) => {
      const stagedAt = Date.now();
      await createForm(api, slug, {}, { key: TEST_KEYS.b });
      await fast.waitFor(1, 5000);
      const waited = Date.now() - stagedAt;
      expect(waited, `the other tenant's receiver waited ${waited} ms`).to.be.below(Number(FAST_WEBHOOKS.WEBHOOK_TIMEOUT_MS) / 2);
      expect(fast.received[0]!.verified).to.equal(true);
    };

    it("gives a receiver that hangs with a backlog no more than its share of places, so another tenant's event goes at once", async () => {
      receiver.answers = ['hang'];
      await subscribe(['form.created']);
      await withOtherTenantReceiver(async (fast) => {
        for (let i = 0; i < 8; i += 1) await createForm(api, `wh-backlog-${i}`);
        await receiver.waitFor(3);
        await settle(100); // every chance to send more of the eight
        expect(receiver.mostOpen, 'requests open at once at the hanging receiver').to.equal(3);
        // Three of the six places are free for the other tenant's event.
        await expectDeliveredAtOnce(fast, 'wh-backlog-b');
        expect(receiver.mostOpen).to.equal(3);
      });
    });

    it("gives a tenant whose webhooks all hang no more than its share of places, so another tenant's event goes at once (decision 0823)", async () => {
      receiver.answers = ['hang'];
      await subscribe(['form.created']);
      await subscribe(['form.created']); // two webhooks: their shares alone (3 + 3) would take all six places
      await withOtherTenantReceiver(async (fast) => {
        for (let i = 0; i < 8; i += 1) await createForm(api, `wh-tenant-backlog-${i}`);
        await receiver.waitFor(3);
        await settle(100); // every chance to send more of the sixteen
        expect(receiver.mostOpen, 'requests open at once for the tenant').to.equal(3);
        await expectDeliveredAtOnce(fast, 'wh-tenant-backlog-b');
        expect(receiver.mostOpen).to.equal(3);
      });
    });

    it('never follows a redirect: the delivery fails after NOTIFY_MAX_ATTEMPTS and the target hears nothing', async () => {
      const target = await StandardWebhookReceiver.start();
      try {
        receiver.answers = [{ status: 307, location: target.url('/elsewhere') }];
        const webhookId = await subscribe(['form.created']);
        await createForm(api, 'wh-redirect');
        await receiver.waitFor(3);
        await settle(300);
        expect(receiver.received).to.have.length(3);
        expect(new Set(receiver.received.map((request) => request.id)).size).to.equal(1);
        expect(target.received).to.have.length(0);
        const [entry] = (await deliveries(webhookId)).data.deliveries;
        expect(entry).to.deep.include({ status: 'failed', attempts: 3, lastStatusCode: 307, lastError: 'redirect not followed (HTTP 307)', deliveredAt: null });
      } finally {
        await target.stop();
      }
    });

    it('joins the trace of the request that caused the event (a child traceparent per attempt)', async () => {
      receiver.answers = [{ status: 500 }, { status: 200 }];
      await subscribe(['form.created']);
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await api.call('POST', '/forms/create', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` }, body: formBody('wh-traced') });
      expect(res.status).to.equal(201);
      const [first, second] = await receiver.waitFor(2);
      for (const request of [first!, second!]) expect(request.traceparent).to.match(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
      expect(new Set([first!.traceparent, second!.traceparent, `00-${traceId}-00f067aa0ba902b7-01`]).size).to.equal(3);
    });

    it('sends nothing to a disabled webhook, nor to one not subscribed to the type', async () => {
      const disabled = await subscribe(['form.created']);
      await api.call('PATCH', `/webhooks/update/${disabled}`, { headers: admin, body: { enabled: false } });
      await subscribe(['comment.created']);
      await createForm(api, 'wh-quiet');
      await settle(200);
      expect(receiver.received).to.have.length(0);
      expect((await deliveries(disabled)).data.deliveries).to.deep.equal([]);
    });
  });
}
