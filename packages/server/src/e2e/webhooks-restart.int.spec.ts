/**
 * §7 durability: an event written with its change survives a service restart before delivery,
 * and an event whose confirmation was cut off (the process died after the change) is settled
 * from the store by the next instance — delivered once when the change is stored, never when it
 * is not. On the Mongo collection double, and on a real MongoDB when MONGODB_URI is set.
 */
import { randomBytes } from 'node:crypto';
import type { MongoDatabase } from '@cms/adapter-mongo';
import { MingoDatabaseDouble } from '@cms/adapter-mongo/testing';
import { SubmissionRepositoryToken, WebhookDeliveryOutboxToken, type Clock, type SubmissionRepository, type WebhookDeliveryOutbox } from '@cms/core';
import { expect } from 'chai';
import { MongoClient } from 'mongodb';
import type { Container } from 'inversify';
import { engagementClient } from '../testing/engagement-client.js';
import { FAST_WEBHOOKS, StandardWebhookReceiver } from '../testing/standard-webhook.receiver.js';
import { startTestService, type TestService } from '../testing/test-service.js';
import { createForm, formBody, submitForm } from './form-requests.js';

/** The first instance never polls again after its start-up pass: what it wrote waits for the next one. */
const NO_DELIVERY = { ...FAST_WEBHOOKS, NOTIFY_POLL_MS: '60000' };
/** The shortest settle there is, and a clock past it: the next instance settles what the first left at once. */
const SETTLE_AT_ONCE = { ...FAST_WEBHOOKS, WEBHOOK_SETTLE_AFTER_MS: '60000' };
const PAST_THE_SETTLE: Clock = { now: () => new Date(Date.now() + 61_000) };

interface Store {
  readonly database: MongoDatabase;
  pendingDeliveries(): Promise<number>;
}

/** The adapter with one method replaced; the others still run on the adapter itself. */
function replacing<T extends object>(adapter: T, method: keyof T, replacement: unknown): T {
  return new Proxy(adapter, {
    get: (target, property) => {
      if (property === method) return replacement;
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The instance "dies" between each change and its confirmation: confirm never lands. */
function cutOffConfirmation(container: Container): void {
  const outbox = container.get<WebhookDeliveryOutbox>(WebhookDeliveryOutboxToken);
  const dying = replacing(outbox, 'confirm', async () => {
    throw new Error('process killed before the confirmation');
  });
  container.rebind(WebhookDeliveryOutboxToken).toConstantValue(dying);
}

const STORES: Array<{ name: string; open: () => Promise<Store & { close(): Promise<void> }> | undefined }> = [
  {
    name: 'the Mongo collection double',
    open: async () => {
      const database = new MingoDatabaseDouble();
      const count = async () => database.collectionDouble('webhook_deliveries').documents().filter((d) => d.status !== 'delivered').length;
      return { database, pendingDeliveries: count, close: async () => {} };
    },
  },
  {
    name: 'a real MongoDB (MONGODB_URI)',
    open: () => {
      const uri = process.env.MONGODB_URI?.trim();
      if (!uri) return undefined;
      return (async () => {
        const client = await new MongoClient(uri, { serverSelectionTimeoutMS: 10_000 }).connect();
        const db = client.db(`cms_test_${randomBytes(6).toString('hex')}`);
        const count = () => db.collection('webhook_deliveries').countDocuments({ status: { $ne: 'delivered' } });
        return { database: db as unknown as MongoDatabase, pendingDeliveries: count, close: async () => (await db.dropDatabase(), await client.close()) };
      })();
    },
  },
];

for (const { name, open } of STORES) {
  describe(`Webhook events across a restart (${name})`, () => {
    let store: (Store & { close(): Promise<void> }) | undefined;
    let receiver: StandardWebhookReceiver;
    const running: TestService[] = [];

    // A fresh store per test: what one test's webhooks were sent stays out of the next one.
    beforeEach(async function () {
      const opened = open();
      if (!opened) return this.skip();
      this.timeout(30_000);
      store = await opened;
      receiver = await StandardWebhookReceiver.start();
    });
    afterEach(async () => {
      for (const api of running.splice(0)) await api.stop();
      await receiver?.stop();
      await store?.close();
    });

    async function start(env: Record<string, string>, configure?: (container: Container) => void, clock?: Clock): Promise<TestService> {
      const api = await startTestService(env, { mongoDatabase: store!.database, ...(clock ? { clock } : {}), ...(configure ? { configure } : {}) });
      running.push(api);
      return api;
    }
    async function subscribe(api: TestService, events: string[]): Promise<string> {
      const admin = await engagementClient(api).bearer('admin');
      const res = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: receiver.url(), events } });
      receiver.secret = res.body.data.webhook.secret;
      return res.body.data.webhook.id;
    }

    it('delivers, once, after a restart, an event written before it', async () => {
      const first = await start(NO_DELIVERY);
      const webhookId = await subscribe(first, ['form.created']);
      const form = await createForm(first, `restart-${randomBytes(3).toString('hex')}`);
      expect(await store!.pendingDeliveries()).to.equal(1);
      await first.stop();
      expect(receiver.received).to.have.length(0);

      const second = await start(FAST_WEBHOOKS);
      const [request] = await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).to.have.length(1);
      expect(request!.verified).to.equal(true);
      expect(request!.body).to.deep.include({ type: 'form.created' });
      expect(request!.body.data.id).to.equal(form.id);
      const log = await second.call('GET', `/webhooks/${webhookId}/deliveries`, { headers: await engagementClient(second).bearer('admin') });
      expect(log.body.data.deliveries).to.have.length(1);
      expect(log.body.data.deliveries[0]).to.deep.include({ status: 'delivered', attempts: 1, eventId: request!.id });
    });

    it('settles an event whose confirmation was cut off after the change: sent once, with the stored record', async () => {
      const first = await start(NO_DELIVERY, cutOffConfirmation);
      await subscribe(first, ['form.created']);
      const slug = `cut-${randomBytes(3).toString('hex')}`;
      const res = await first.call('POST', '/forms/create', { body: formBody(slug) });
      expect(res.status).to.equal(201);
      await first.stop();
      expect(receiver.received).to.have.length(0);

      await start(SETTLE_AT_ONCE, undefined, PAST_THE_SETTLE);
      const [request] = await receiver.waitFor(1);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).to.have.length(1);
      expect(request!.verified).to.equal(true);
      expect(request!.body.data).to.deep.include({ id: res.body.data.form.id, slug });
    });

    it('settles cut-off events of an update, a disconnect and a delete from the store, and drops a refused one', async () => {
      const first = await start(NO_DELIVERY, cutOffConfirmation);
      const company = await createForm(first, `cut-co-${randomBytes(3).toString('hex')}`);
      const person = await createForm(first, `cut-pe-${randomBytes(3).toString('hex')}`, {
        sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'N' } }, { name: 'employer', type: 'relation', label: { en: 'E' }, relation: { formId: company.id } }] }],
      });
      const acme = await submitForm(first, company.id, { name: 'Acme' });
      const ada = await submitForm(first, person.id, { name: 'Ada' });
      await first.call('POST', `/forms/submission/${ada.id}/relations/employer/connect`, { body: { relatedSubmissionId: acme.id } });
      const engagement = engagementClient(first);
      const article = await engagement.article();
      const comment = await engagement.comment(article.id);
      await subscribe(first, ['form.updated', 'submission.relation.disconnected', 'comment.deleted']);
      const updated = await first.call('PATCH', `/forms/update/${company.id}`, { body: { title: { en: 'Renamed' } } });
      expect(updated.status).to.equal(200);
      expect((await first.call('POST', `/forms/submission/${ada.id}/relations/employer/disconnect`, { body: { relatedSubmissionId: acme.id } })).status).to.equal(200);
      expect((await first.call('DELETE', `/articles/comments/${comment.id}`, { headers: await engagement.bearer('editor') })).status).to.equal(200);
      // Refused by the unique slug: staged, then discarded (a refusal changed nothing).
      expect((await first.call('PATCH', `/forms/update/${company.id}`, { body: { slug: person.slug } })).status).to.equal(409);
      expect(await store!.pendingDeliveries()).to.equal(3);
      await first.stop();

      await start(SETTLE_AT_ONCE, undefined, PAST_THE_SETTLE);
      await receiver.waitFor(3);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(receiver.received).to.have.length(3);
      expect(receiver.received.every((request) => request.verified === true)).to.equal(true);
      const data = (type: string) => receiver.received.find((request) => request.body.type === type)?.body.data;
      expect(data('form.updated')).to.deep.include({ id: company.id, updatedAt: updated.body.data.form.updatedAt, title: { en: 'Renamed' } });
      expect(data('submission.relation.disconnected')).to.deep.include({ id: ada.id, relations: {} });
      expect(data('comment.deleted')).to.deep.equal({ id: comment.id, articleId: article.id });
    });

    it('sends each delivery once when two instances dispatch from the same store', async () => {
      const first = await start(FAST_WEBHOOKS);
      const second = await start(FAST_WEBHOOKS);
      await subscribe(first, ['form.created']);
      const created = await Promise.all(
        Array.from({ length: 12 }, (_, i) => createForm(i % 2 === 0 ? first : second, `twin-${i}-${randomBytes(3).toString('hex')}`)),
      );
      await receiver.waitFor(12);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(receiver.received).to.have.length(12);
      expect(new Set(receiver.received.map((request) => request.id)).size).to.equal(12);
      expect(receiver.received.map((request) => request.body.data.id)).to.have.members(created.map((form) => form.id));
      expect(receiver.received.every((request) => request.verified === true)).to.equal(true);
    });

    it('drops, unsent, an event whose change never landed (the write failed in an outage)', async () => {
      const failingInsert = (container: Container) => {
        const submissions = container.get<SubmissionRepository>(SubmissionRepositoryToken);
        const broken = replacing(submissions, 'insert', async () => {
          throw new Error('connection reset');
        });
        container.rebind(SubmissionRepositoryToken).toConstantValue(broken);
      };
      const first = await start(NO_DELIVERY, failingInsert);
      const form = await createForm(first, `lost-${randomBytes(3).toString('hex')}`);
      await subscribe(first, ['form.submitted']);
      const res = await first.call('POST', `/forms/${form.id}/submit`, { body: { values: { name: 'Ada' } } });
      expect(res.status).to.equal(500);
      expect(await store!.pendingDeliveries()).to.be.at.least(1); // left unconfirmed, for the store to decide
      await first.stop();

      await start(SETTLE_AT_ONCE, undefined, PAST_THE_SETTLE);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received).to.have.length(0);
      expect(await store!.pendingDeliveries()).to.equal(0);
    });
  });
}
