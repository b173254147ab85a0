import { expect } from 'chai';
import { MemoryArticleRepository } from '../memory/memory-article.repository.js';
import { MemoryCommentRepository } from '../memory/memory-comment.repository.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryReactionRepository } from '../memory/memory-reaction.repository.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { MemoryWebhookDeliveryOutbox } from '../memory/memory-webhook-delivery.outbox.js';
import { MemoryWebhookRepository } from '../memory/memory-webhook.repository.js';
import { DomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { ManualClock } from '../shared/clock.js';
import { silentLogger } from '../shared/logger.js';
import { userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { formRecord } from '../testing/form-fixtures.js';
import { holdNext, signal } from '../testing/held-calls.js';
import { CreateWebhook } from './create-webhook.use-case.js';
import { DeleteWebhook } from './delete-webhook.use-case.js';
import { DispatchWebhooks } from './dispatch-webhooks.use-case.js';
import { EventWitnessReader } from './event-witness-reader.js';
import { UpdateWebhook } from './update-webhook.use-case.js';
import { signatureOf } from './sign-webhook.js';
import { WebhookEvents } from './webhook-events.js';
import { WEBHOOK_URL_MAX, WEBHOOKS_PER_TENANT_MAX } from './webhook.js';
import { WebhookAddressRefused, type WebhookDeliveryPolicy, type WebhookRequest, type WebhookSender } from './webhooks.ports.js';

const TENANT = 't1';
/** Text `new URL` accepts by mending it into http://93.184.216.34/…: none of it is a URL written plainly (§7). */
const MENDED_URLS = [
  'http:/93.184.216.34/',
  'http:93.184.216.34/x',
  '  http://93.184.216.34/x  ',
  'http://93.184\n.216.34/x',
  'http://93.184\t.216.34/x',
  'http:///93.184.216.34/',
  'http://93.184.216.34\\x',
  'http://93.184.216.34/\u0085',
  'https://93.184.216.34/x\u00a0',
];
const admin = userCaller(TENANT, 'admin-1', 'admin');

function fixture(policyChanges: Partial<WebhookDeliveryPolicy> = {}) {
  const clock = new ManualClock('2026-05-06T07:08:09.000Z');
  const webhooks = new MemoryWebhookRepository();
  const outbox = new MemoryWebhookDeliveryOutbox();
  const forms = new MemoryFormRepository();
  const stores = { forms, submissions: new MemorySubmissionRepository(), articles: new MemoryArticleRepository(), comments: new MemoryCommentRepository(), reactions: new MemoryReactionRepository() };
  const sent: WebhookRequest[] = [];
  const sender: WebhookSender & { answer: (request: WebhookRequest) => Promise<{ statusCode: number }> } = {
    answer: async () => ({ statusCode: 200 }),
    send(request) {
      sent.push(request);
      return this.answer(request);
    },
  };
  const policy = { maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 60_000, leaseMs: 60_000, batchSize: 10, settleUnconfirmedAfterMs: 300_000, inFlightPerWebhook: 10, inFlightPerTenant: 10, ...policyChanges };
  const events = new WebhookEvents(webhooks, outbox, clock, silentLogger);
  const dispatch = new DispatchWebhooks(webhooks, outbox, new EventWitnessReader(stores), sender, policy, clock, silentLogger);
  const create = new CreateWebhook(webhooks, { isAllowed: async (url) => !url.includes('internal') }, clock);
  return { clock, webhooks, outbox, forms, events, dispatch, create, sender, sent };
}

describe('Webhooks (core, in-memory adapters)', () => {
  describe('CreateWebhook', () => {
    it('refuses a URL the guard refuses with WEBHOOK_URL_NOT_ALLOWED, after the body checks', async () => {
      const { create } = fixture();
      expect((await domainErrorOf(create.execute(admin, { url: 'http://internal.example/', events: ['*'] }))).code).to.equal(ErrorCodes.WEBHOOK_URL_NOT_ALLOWED);
      expect((await domainErrorOf(create.execute(admin, { url: 'http://internal.example/', events: [] }))).code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect((await domainErrorOf(create.execute(userCaller(TENANT, 'e', 'editor'), { url: 'https://x.example/', events: ['*'] }))).code).to.equal(ErrorCodes.FORBIDDEN);
    });

    it('refuses a URL the WHATWG parser would have to mend, keeping the message of one that does not parse', async () => {
      const { create, webhooks } = fixture();
      for (const url of [...MENDED_URLS, 'not a url', 'ftp://hooks.example/']) {
        const error = await domainErrorOf(create.execute(admin, { url, events: ['*'] }));
        expect([error.code, error.message], JSON.stringify(url)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'url must be an absolute http or https URL']);
      }
      expect(await webhooks.list(TENANT, { limit: 100 })).to.deep.equal([]);
      const plain = await create.execute(admin, { url: 'HTTPS://Hooks.Example/x?a=b#c', events: ['*'] });
      expect(plain.url).to.equal('HTTPS://Hooks.Example/x?a=b#c'); // stored as sent
    });

    it('counts the URL in characters, as the route schema does: 2048 with emoji fit, 2049 do not', async () => {
      const { create } = fixture();
      const base = 'https://hooks.example/';
      expect(WEBHOOK_URL_MAX, 'CONTRACT §7').to.equal(2048);
      const atLimit = base + '\u{1F600}'.repeat(2048 - base.length);
      expect((await create.execute(admin, { url: atLimit, events: ['*'] })).url).to.equal(atLimit);
      const error = await domainErrorOf(create.execute(admin, { url: `${atLimit}a`, events: ['*'] }));
      expect([error.code, error.message]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, `url must be at most ${WEBHOOK_URL_MAX} characters`]);
    });

    it(`refuses a tenant’s ${WEBHOOKS_PER_TENANT_MAX + 1}th webhook with WEBHOOK_LIMIT_REACHED, after the body and URL checks, and takes one after a delete`, async () => {
      const { create, webhooks } = fixture();
      for (let i = 0; i < WEBHOOKS_PER_TENANT_MAX; i += 1) await create.execute(admin, { url: `https://hooks.example/${i}`, events: ['*'] });
      const refusal = await domainErrorOf(create.execute(admin, { url: 'https://hooks.example/one-more', events: ['*'] }));
      expect([refusal.code, refusal.message]).to.deep.equal([ErrorCodes.WEBHOOK_LIMIT_REACHED, `A tenant may have at most ${WEBHOOKS_PER_TENANT_MAX} webhooks`]);
      expect((await domainErrorOf(create.execute(admin, { url: 'https://hooks.example/', events: [] }))).code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect((await domainErrorOf(create.execute(admin, { url: 'http://internal.example/', events: ['*'] }))).code).to.equal(ErrorCodes.WEBHOOK_URL_NOT_ALLOWED);
      expect(await webhooks.list(TENANT, { limit: 100 })).to.have.length(WEBHOOKS_PER_TENANT_MAX);
      // Another tenant's webhooks are its own.
      expect((await create.execute(userCaller('t2', 'admin-2', 'admin'), { url: 'https://hooks.example/t2', events: ['*'] })).url).to.equal('https://hooks.example/t2');
      const [newest] = await webhooks.list(TENANT, { limit: 1 });
      await new DeleteWebhook(webhooks, new MemoryWebhookDeliveryOutbox()).execute(admin, { id: newest!.id });
      expect((await create.execute(admin, { url: 'https://hooks.example/again', events: ['*'] })).url).to.equal('https://hooks.example/again');
    });
  });

  describe('UpdateWebhook', () => {
    it('refuses the same URLs as the create, and changes nothing', async () => {
      const { create, webhooks, clock } = fixture();
      const { id } = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      const update = new UpdateWebhook(webhooks, { isAllowed: async () => true }, clock);
      for (const url of MENDED_URLS) {
        const error = await domainErrorOf(update.execute(admin, { id, changes: { url } }));
        expect([error.code, error.message], JSON.stringify(url)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'changes.url must be an absolute http or https URL']);
      }
      expect((await webhooks.findById(TENANT, id))?.url).to.equal('https://hooks.example/');
    });
  });

  describe('WebhookEvents.around', () => {
    it('writes nothing when no webhook subscribes', async () => {
      const { events, outbox } = fixture();
      const result = await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: 1, data: {} }));
      expect(result).to.equal(1);
      expect(await outbox.countByStatus()).to.deep.equal({ unconfirmed: 0, pending: 0, delivered: 0, failed: 0 });
    });

    it('confirms after the change, discards after a refusal or no change, and leaves an outage unconfirmed', async () => {
      const { events, outbox, create } = fixture();
      await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      const spec = { tenantId: TENANT, type: 'form.created' as const, witness: { kind: 'form' as const, id: 'a'.repeat(24) } };
      await events.around(spec, async () => ({ result: null, data: { id: 'a'.repeat(24), tenantId: TENANT } }));
      await events.around(spec, async () => ({ result: null }));
      await events.around(spec, async () => Promise.reject(new DomainError(ErrorCodes.FORM_SLUG_TAKEN))).catch(() => undefined);
      await events.around(spec, async () => Promise.reject(new Error('connection reset'))).catch(() => undefined);
      expect(await outbox.countByStatus()).to.deep.equal({ unconfirmed: 1, pending: 1, delivered: 0, failed: 0 });
    });
  });

  describe('DispatchWebhooks', () => {
    it('signs with the secret, retries on the back-off under one webhook-id, then fails', async () => {
      const { events, dispatch, create, sender, sent, clock, outbox } = fixture();
      const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['form.created'] });
      await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: { id: 'x' } }));
      sender.answer = async () => ({ statusCode: 503 });
      expect((await dispatch.execute()).retried).to.equal(1);
      expect((await dispatch.execute()).claimed).to.equal(0); // not due before the back-off
      clock.advance(1000);
      expect((await dispatch.execute()).retried).to.equal(1);
      clock.advance(2000);
      expect((await dispatch.execute()).failed).to.equal(1);
      expect(sent).to.have.length(3);
      expect(new Set(sent.map((request) => request.headers['webhook-id'])).size).to.equal(1);
      const { headers, body } = sent[2]!;
      expect(headers['webhook-timestamp']).to.equal(String(Date.parse('2026-05-06T07:08:12.000Z') / 1000));
      expect(headers['webhook-signature']).to.equal(signatureOf(webhook.secret, headers['webhook-id']!, Number(headers['webhook-timestamp']), body));
      expect(headers['content-type']).to.equal('application/json');
      const [log] = await outbox.listByWebhook(TENANT, webhook.id, 100);
      expect(log).to.deep.include({ status: 'failed', attempts: 3, lastStatusCode: 503, lastError: 'HTTP 503' });
    });

    it('fails at once, with no retry, when the address is refused at send time', async () => {
      const { events, dispatch, create, sender, outbox } = fixture();
      const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
      sender.answer = async () => Promise.reject(new WebhookAddressRefused());
      expect((await dispatch.execute()).failed).to.equal(1);
      const [log] = await outbox.listByWebhook(TENANT, webhook.id, 100);
      expect(log).to.deep.include({ status: 'failed', attempts: 0, lastStatusCode: null, lastError: 'webhook URL resolves to an address that is not allowed' });
    });

    it('takes 200-299 as delivered and 300 on as an answer to retry (§7: any 2xx is delivered; redirects are not followed)', async () => {
      for (const [statusCode, outcome] of [[200, 'delivered'], [299, 'delivered'], [300, 'redirect not followed (HTTP 300)'], [199, 'HTTP 199']] as const) {
        const { events, dispatch, create, sender, outbox } = fixture();
        const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
        await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
        sender.answer = async () => ({ statusCode });
        await dispatch.execute();
        const [log] = await outbox.listByWebhook(TENANT, webhook.id, 100);
        if (outcome === 'delivered') expect(log, String(statusCode)).to.deep.include({ status: 'delivered', lastStatusCode: statusCode });
        else expect(log, String(statusCode)).to.deep.include({ status: 'pending', attempts: 1, lastStatusCode: statusCode, lastError: outcome });
      }
    });

    const changesWhileRetryPending = [
      [{ enabled: false }, 'webhook is disabled'],
      [{ events: ['form.deleted'] }, 'webhook no longer subscribes to this event'],
    ] as const;
    for (const [change, lastError] of changesWhileRetryPending) {
      it(`sends nothing more for a delivery whose webhook changed (${JSON.stringify(change)}) while its retry was pending, and logs the requests sent and the last answer`, async () => {
        const { events, dispatch, create, sender, sent, clock, outbox, webhooks } = fixture();
        const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['form.created'] });
        await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
        sender.answer = async () => ({ statusCode: 500 });
        expect((await dispatch.execute()).retried).to.equal(1);
        await webhooks.update(TENANT, webhook.id, change, clock.now());
        clock.advance(1000);
        expect(await dispatch.execute()).to.deep.include({ claimed: 1, failed: 1 });
        expect(sent).to.have.length(1);
        const [log] = await outbox.listByWebhook(TENANT, webhook.id, 100);
        expect(log).to.deep.include({ status: 'failed', attempts: 1, lastStatusCode: 500, lastError });
      });
    }

    it('gives up on a delivery whose claims all lapsed, counting the attempts those claims made and not its own', async () => {
      const { events, dispatch, create, sent, clock, outbox } = fixture();
      const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
      for (let claim = 0; claim < 3; claim += 1) {
        expect(await outbox.claimDue(clock.now(), 60_000, 10)).to.have.length(1); // a dispatcher that died mid-send
        clock.advance(60_000);
      }
      expect((await dispatch.execute()).failed).to.equal(1);
      expect(sent).to.have.length(0);
      const [log] = await outbox.listByWebhook(TENANT, webhook.id, 100);
      expect(log).to.deep.include({ status: 'failed', attempts: 3, lastError: 'gave up after 3 attempts without an outcome' });
    });

    it('settles a stale unconfirmed event by its witness: confirmed when the record is stored, dropped when not', async () => {
      const { events, dispatch, create, forms, clock, sent, outbox } = fixture();
      await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      const stored = formRecord(TENANT, 'kept');
      const outage = async () => Promise.reject(new Error('ack lost'));
      await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: stored.id } }, async () => (await forms.insert(stored), outage()) as never).catch(() => undefined);
      await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'b'.repeat(24) } }, outage).catch(() => undefined);
      await dispatch.execute();
      expect(sent).to.have.length(0); // within the grace period nothing is decided
      clock.advance(300_001);
      await dispatch.execute();
      await dispatch.execute();
      expect(sent).to.have.length(1);
      expect(JSON.parse(sent[0]!.body)).to.deep.include({ type: 'form.created' });
      expect(JSON.parse(sent[0]!.body).data).to.deep.include({ id: stored.id, tenantId: TENANT, slug: 'kept' });
      expect(await outbox.countByStatus()).to.deep.equal({ unconfirmed: 0, pending: 0, delivered: 1, failed: 0 });
    });

    it('drops a stale delete event once a later write announced the same delete, but not for one still in flight (decision 0821)', async () => {
      const { events, dispatch, create, clock, sent, outbox } = fixture();
      await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      const deleted = (id: string) => ({ tenantId: TENANT, type: 'form.deleted' as const, witness: { kind: 'deleted' as const, record: 'form' as const, id, data: { id } } });
      const died = async () => Promise.reject(new Error('the process died'));
      // Form a: the dead run's event, then the retry's, answered. Form b: the dead run's only.
      // Form c: the dead run's event, and a retry still in flight when the settle pass comes.
      for (const form of ['a', 'b', 'c']) await events.around(deleted(form.repeat(24)), died).catch(() => undefined);
      clock.advance(60_000);
      await events.around(deleted('a'.repeat(24)), async () => ({ result: null, data: { id: 'a'.repeat(24) } }));
      clock.advance(300_000);
      const inFlight = signal();
      const retrying = events.around(deleted('c'.repeat(24)), async () => (await inFlight.promise, { result: null, data: { id: 'c'.repeat(24) } }));
      while ((await dispatch.execute()).claimed > 0);
      inFlight.fire();
      await retrying;
      clock.advance(300_000);
      while ((await dispatch.execute()).claimed > 0);
      const announced = sent.map((request) => (JSON.parse(request.body) as { data: { id: string } }).data.id[0]).sort();
      expect(announced).to.deep.equal(['a', 'b', 'c', 'c']); // c: two, rather than none should the retry be refused
      expect(await outbox.countByStatus()).to.deep.include({ unconfirmed: 0, pending: 0 });
    });

    it('drops, unsent and unlogged, the delivery of an event staged while its webhook was being deleted', async () => {
      const { events, dispatch, create, outbox, webhooks, sent } = fixture();
      const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      const release = signal();
      const staging = holdNext(outbox, 'stage', release.promise); // the subscribers are read, the delivery not yet staged
      const change = events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
      await staging;
      await new DeleteWebhook(webhooks, outbox).execute(admin, { id: webhook.id });
      release.fire();
      await change;
      expect(await outbox.countByStatus()).to.deep.include({ pending: 1 });
      expect(await dispatch.execute()).to.deep.include({ claimed: 1, skipped: 1, failed: 0 });
      expect(sent).to.have.length(0);
      expect(await outbox.countByStatus()).to.deep.equal({ unconfirmed: 0, pending: 0, delivered: 0, failed: 0 });
    });

    it('gives a webhook no more than its share of places while another webhook has deliveries due, and says when it frees one', async () => {
      const { events, dispatch, create, sender, sent } = fixture({ batchSize: 10, inFlightPerWebhook: 3 });
      const slow = await create.execute(admin, { url: 'https://slow.example/', events: ['*'] });
      const fast = await create.execute(admin, { url: 'https://fast.example/', events: ['*'] });
      const release = signal();
      sender.answer = async (request) => (request.url === slow.url ? release.promise.then(() => ({ statusCode: 200 })) : { statusCode: 200 });
      for (let i = 0; i < 6; i += 1) {
        await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: { i } }));
      }
      expect(dispatch.heldBack()).to.equal(undefined);
      const sentTo = (url: string) => sent.filter((request) => request.url === url).length;
      const sends = await dispatch.claimAndSend(10);
      expect(sends).to.have.length(6); // three of each webhook's six: each holds its share, with places left
      expect(dispatch.heldBack()).to.not.equal(undefined);
      await dispatch.heldBack(); // the fast receiver answers at once
      const more = await dispatch.claimAndSend(10);
      expect(more).to.have.length(3);
      await Promise.all(more);
      expect([sentTo(slow.url), sentTo(fast.url)]).to.deep.equal([3, 6]);
      // Only the slow webhook holds its share now, and what waits for it waits for its receiver.
      const heldBack = dispatch.heldBack();
      const first = await Promise.race([heldBack!.then(() => 'a place freed'), new Promise((resolve) => setTimeout(resolve, 30, 'still held'))]);
      expect(first).to.equal('still held');
      expect(await dispatch.claimAndSend(10)).to.have.length(0);
      release.fire();
      await heldBack;
      await Promise.all(sends);
      expect(dispatch.heldBack()).to.equal(undefined);
      expect(await dispatch.claimAndSend(10)).to.have.length(3);
    });

    it('gives a tenant no more than its share of places, however many webhooks it has, while another tenant has deliveries due', async () => {
      const { events, dispatch, create, sender, sent } = fixture({ batchSize: 10, inFlightPerWebhook: 3, inFlightPerTenant: 4 });
      const other = userCaller('other', 'admin-2', 'admin');
      const hanging = [];
      for (let n = 1; n <= 3; n += 1) hanging.push(await create.execute(admin, { url: `https://hangs-${n}.example/`, events: ['*'] }));
      const fast = await create.execute(other, { url: 'https://fast.example/', events: ['*'] });
      const release = signal();
      sender.answer = async (request) => (request.url === fast.url ? { statusCode: 200 } : release.promise.then(() => ({ statusCode: 200 })));
      const stage = (tenantId: string) => events.around({ tenantId, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: {} }));
      for (let i = 0; i < 3; i += 1) await stage(TENANT); // three deliveries to each of the three hanging webhooks
      await stage('other');
      const sends = await dispatch.claimAndSend(10);
      // Four of the nine hanging ones (the tenant's share, not three webhooks × three), and the other tenant's at once.
      expect(sends).to.have.length(5);
      expect(sent.filter((request) => request.url === fast.url)).to.have.length(1);
      await stage('other');
      expect(await dispatch.claimAndSend(10)).to.have.length(1); // the other tenant again; none of the first tenant's
      expect(dispatch.heldBack()).to.not.equal(undefined);
      release.fire();
      await Promise.all(sends);
      expect(await dispatch.claimAndSend(10)).to.have.length(4);
    });

    it('keeps the latest 100 final deliveries per webhook', async () => {
      const { events, dispatch, create, outbox, clock } = fixture();
      const webhook = await create.execute(admin, { url: 'https://hooks.example/', events: ['*'] });
      for (let i = 0; i < 105; i += 1) {
        clock.advance(1);
        await events.around({ tenantId: TENANT, type: 'form.created', witness: { kind: 'form', id: 'a'.repeat(24) } }, async () => ({ result: null, data: { i } }));
      }
      while ((await dispatch.execute()).claimed > 0);
      const log = await outbox.listByWebhook(TENANT, webhook.id, 1000);
      expect(log).to.have.length(100);
      expect(log.map((delivery) => delivery.status).every((status) => status === 'delivered')).to.equal(true);
      expect(await outbox.countByStatus()).to.deep.include({ delivered: 100 });
    });
  });
});
