/**
 * Webhooks when embedded: `createCore({ webhooks })` records every write's event with the change
 * (CONTRACT §7), as the HTTP service does, and builds the management use cases and the delivery
 * dispatcher on the sender and URL guard the embedder gives. Without the option no write records
 * an event (and, given the option, `core.webhooks` is typed as there: no `!` below). The sender here is a port double; `@cms/adapter-notify`'s `HttpWebhookSender` is
 * proven against a loopback receiver in its own specs.
 */
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { ManualClock } from '../shared/clock.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { userCaller } from '../testing/callers.js';
import type { WebhookRequest, WebhookSender, WebhookUrlGuard } from '../webhooks/webhooks.ports.js';
import { memoryStores } from './core-stores.js';
import { createCore } from './create-core.js';

class RecordingSender implements WebhookSender {
  readonly requests: WebhookRequest[] = [];
  async send(request: WebhookRequest): Promise<{ statusCode: number }> {
    this.requests.push(request);
    return { statusCode: 204 };
  }
}

/** Allows the receiver's host only, as a guard that refuses private addresses would refuse the rest. */
const receiverOnly: WebhookUrlGuard = { isAllowed: async (url) => new URL(url).host === 'receiver.example' };

const TENANT = 'acme';
const admin = userCaller(TENANT, 'admin-1', 'admin');
const editor = userCaller(TENANT, 'ed-1', 'editor');

describe('createCore: webhooks', () => {
  const captcha = new StaticCaptchaVerifier(new Map());

  it('records the event of each write with the change and delivers it signed, as the service does', async () => {
    const clock = new ManualClock('2026-05-01T10:00:00.000Z');
    const sender = new RecordingSender();
    const core = createCore({ captcha, clock, webhooks: { sender, urlGuard: receiverOnly } });
    const webhooks = core.webhooks;
    const { id: webhookId, secret } = await webhooks.create.execute(admin, { url: 'https://receiver.example/hooks', events: ['article.created', 'article.deleted'] });
    const article = await core.articles.create.execute(editor, { title: 'Embedded' });
    await core.articles.update.execute(editor, { id: article.id, changes: { title: 'Not subscribed' } });
    await core.articles.remove.execute(editor, { id: article.id });

    expect(await webhooks.dispatch.execute()).to.deep.include({ claimed: 2, sent: 2 });
    const bodies = sender.requests.map((request) => JSON.parse(request.body) as { type: string; data: { id: string; title?: string } });
    expect(bodies.map((body) => body.type).sort()).to.deep.equal(['article.created', 'article.deleted']);
    expect(bodies.find((body) => body.type === 'article.created')!.data).to.deep.include({ id: article.id, title: 'Embedded' });
    expect(bodies.find((body) => body.type === 'article.deleted')!.data).to.deep.equal({ id: article.id });
    for (const { url, headers, body } of sender.requests) {
      expect(url).to.equal('https://receiver.example/hooks');
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const signed = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest('base64');
      expect(headers['webhook-signature']).to.equal(`v1,${signed}`);
    }
    const log = await webhooks.deliveries.execute(admin, { id: webhookId });
    expect(log.map((delivery) => delivery.status)).to.deep.equal(['delivered', 'delivered']);
  });

  it('refuses a webhook URL its guard refuses, and claims as many deliveries a pass as its batch size', async () => {
    // One tenant: its share (default half the batch, decision 0823) is raised to the whole batch.
    const core = createCore({ captcha, webhooks: { sender: new RecordingSender(), urlGuard: receiverOnly, batchSize: 3, inFlightPerTenant: 3 } });
    const webhooks = core.webhooks;
    const refused = await domainErrorOf(webhooks.create.execute(admin, { url: 'http://127.0.0.1:9/hooks', events: ['*'] }));
    expect(refused.code).to.equal('WEBHOOK_URL_NOT_ALLOWED');
    await webhooks.create.execute(admin, { url: 'https://receiver.example/hooks', events: ['*'] });
    for (let i = 0; i < 5; i++) await core.articles.create.execute(editor, { title: `Article ${i}` });
    expect((await webhooks.dispatch.execute()).claimed).to.equal(3);
    expect((await webhooks.dispatch.execute()).claimed).to.equal(2);
  });

  it('gives one tenant half the batch by default, rounded up (decision 0823)', async () => {
    const core = createCore({ captcha, webhooks: { sender: new RecordingSender(), urlGuard: receiverOnly, batchSize: 3 } });
    await core.webhooks.create.execute(admin, { url: 'https://receiver.example/hooks', events: ['*'] });
    for (let i = 0; i < 5; i++) await core.articles.create.execute(editor, { title: `Article ${i}` });
    expect((await core.webhooks.dispatch.execute()).claimed).to.equal(2);
  });

  it('records no event and builds no webhook use cases without the option', async () => {
    const stores = memoryStores();
    const core = createCore({ captcha, stores });
    expect(core.webhooks).to.equal(undefined);
    // A subscription written straight to the store: a core without webhooks still stages nothing for it.
    const withWebhooks = createCore({ captcha, stores, webhooks: { sender: new RecordingSender(), urlGuard: receiverOnly } });
    await withWebhooks.webhooks.create.execute(admin, { url: 'https://receiver.example/hooks', events: ['*'] });
    await core.articles.create.execute(editor, { title: 'Silent' });
    expect(await stores.webhookDeliveries.countByStatus()).to.deep.equal({ unconfirmed: 0, pending: 0, delivered: 0, failed: 0 });
    await withWebhooks.articles.create.execute(editor, { title: 'Heard' });
    expect(await stores.webhookDeliveries.countByStatus()).to.deep.include({ unconfirmed: 0, pending: 1 });
  });

  it('says what is missing when the stores given have no webhook storage', () => {
    const { webhooks: _webhooks, webhookDeliveries: _deliveries, ...stores } = memoryStores();
    expect(() => createCore({ captcha, stores, webhooks: { sender: new RecordingSender(), urlGuard: receiverOnly } })).to.throw(
      TypeError,
      'createCore: options.webhooks needs stores.webhooks and stores.webhookDeliveries',
    );
  });
});
