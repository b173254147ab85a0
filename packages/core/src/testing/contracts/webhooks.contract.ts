/**
 * The WebhookRepository and WebhookDeliveryOutbox contracts: paging without skips, subscription
 * lookup, the unconfirmed → pending → delivered/failed life of a delivery, claims held for a
 * lease, and the bounded delivery log.
 */
import { expect } from 'chai';
import type { Webhook } from '../../webhooks/webhook.js';
import type { NewWebhookDelivery, WebhookDeliveryOutbox, WebhookRepository } from '../../webhooks/webhooks.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

const T0 = new Date('2026-04-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const hex = (n: number) => n.toString(16).padStart(24, '0');
const TRACE = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '01' };

function webhookRecord(n: number, overrides: Partial<Webhook> = {}): Webhook {
  return { id: hex(n), tenantId: 'acme', url: `https://hooks.example/${n}`, events: ['*'], description: null, enabled: true, secret: 'whsec_AAAA', createdAt: at(n), updatedAt: at(n), ...overrides };
}

export function webhookRepositoryContract(name: string, factory: RepositoryFactory<WebhookRepository>): void {
  describe(`WebhookRepository contract: ${name}`, () => {
    const repository = useRepository(factory);

    it('pages newest first after a position, tenant by tenant', async () => {
      for (const n of [1, 2, 3, 4]) await repository().insert(webhookRecord(n));
      await repository().insert(webhookRecord(9, { tenantId: 'other' }));
      const first = await repository().list('acme', { limit: 2 });
      expect(first.map((w) => w.id)).to.deep.equal([hex(4), hex(3)]);
      const next = await repository().list('acme', { limit: 5, after: { createdAt: first[1]!.createdAt, id: first[1]!.id } });
      expect(next.map((w) => w.id)).to.deep.equal([hex(2), hex(1)]);
    });

    it('finds the enabled subscribers of a type, "*" included', async () => {
      await repository().insert(webhookRecord(1, { events: ['form.created'] }));
      await repository().insert(webhookRecord(2, { events: ['comment.created'] }));
      await repository().insert(webhookRecord(3, { events: ['*'] }));
      await repository().insert(webhookRecord(4, { events: ['form.created'], enabled: false }));
      const found = await repository().listSubscribed('acme', 'form.created');
      expect(found.map((w) => w.id).sort()).to.deep.equal([hex(1), hex(3)]);
    });

    it('updates only what is given and removes once', async () => {
      await repository().insert(webhookRecord(1, { description: 'kept' }));
      const updated = await repository().update('acme', hex(1), { enabled: false }, at(100));
      expect(updated).to.deep.include({ enabled: false, description: 'kept', url: 'https://hooks.example/1' });
      expect(updated!.updatedAt.toISOString()).to.equal(at(100).toISOString());
      expect(await repository().update('other', hex(1), { enabled: true }, at(101))).to.equal(null);
      expect(await repository().remove('acme', hex(1))).to.equal(true);
      expect(await repository().remove('acme', hex(1))).to.equal(false);
      expect(await repository().findById('acme', hex(1))).to.equal(null);
    });

    it('removes on a condition: only while updatedAt is still the expected one (If-Match)', async () => {
      await repository().insert(webhookRecord(1));
      expect(await repository().remove('acme', hex(1), at(2)), 'a stale version').to.equal(false);
      expect(await repository().findById('acme', hex(1))).to.not.equal(null);
      expect(await repository().remove('acme', hex(1), at(1))).to.equal(true);
      expect(await repository().findById('acme', hex(1))).to.equal(null);
    });

    it('updates on a condition: only while updatedAt is still the expected one (If-Match)', async () => {
      await repository().insert(webhookRecord(1));
      expect(await repository().update('acme', hex(1), { enabled: false }, at(100), at(2))).to.equal(null);
      expect(await repository().findById('acme', hex(1))).to.deep.include({ enabled: true, updatedAt: at(1) });
      const updated = await repository().update('acme', hex(1), { enabled: false }, at(100), at(1));
      expect(updated).to.deep.include({ enabled: false, updatedAt: at(100) });
      expect(await repository().update('acme', hex(1), { enabled: true }, at(101), at(1)), 'the old updatedAt no longer holds').to.equal(null);
      expect(await repository().update('acme', hex(2), { enabled: true }, at(101), at(1))).to.equal(null);
    });
  });
}

function delivery(eventId: number, webhookId = 1, overrides: Partial<NewWebhookDelivery> = {}): NewWebhookDelivery {
  return { tenantId: 'acme', webhookId: hex(webhookId), eventId: hex(1000 + eventId), type: 'form.created', witness: { kind: 'form', id: hex(7) }, trace: TRACE, ...overrides };
}

/**
 * The outbox with the webhooks of the same store: a claim's share per tenant covers every webhook
 * the store holds for a tenant (decision 0823).
 */
export interface WebhookDeliveryStores {
  readonly outbox: WebhookDeliveryOutbox;
  readonly webhooks: WebhookRepository;
}

export function webhookDeliveryOutboxContract(name: string, factory: RepositoryFactory<WebhookDeliveryStores>): void {
  describe(`WebhookDeliveryOutbox contract: ${name}`, () => {
    const stores = useRepository(factory);
    const outbox = () => stores().outbox;

    it('holds staged deliveries back until confirmed, then claims each once per lease', async () => {
      await outbox().stage([delivery(1, 1), delivery(1, 2)], T0);
      expect(await outbox().claimDue(at(10), 60_000, 10)).to.deep.equal([]);
      await outbox().confirm('acme', hex(1001), '{"type":"form.created"}', at(20));
      const claimed = await outbox().claimDue(at(30), 60_000, 10);
      expect(claimed).to.have.length(2);
      expect(claimed[0]).to.deep.include({ status: 'pending', payload: '{"type":"form.created"}', attempts: 1, eventId: hex(1001) });
      expect(claimed[0]!.witness).to.deep.equal({ kind: 'form', id: hex(7) });
      expect(claimed[0]!.trace).to.deep.equal(TRACE);
      expect(await outbox().claimDue(at(40), 60_000, 10)).to.deep.equal([]);
      expect(await outbox().claimDue(at(60_031), 60_000, 10)).to.have.length(2); // the lease lapsed
    });

    it('takes turns between webhooks, oldest due first within each, and goes on after the webhook the last claim took from', async () => {
      const owners = [1, 1, 1, 2, 2, 3]; // events 1-6: webhook 1 has three, webhook 2 two, webhook 3 one
      for (const [i, webhook] of owners.entries()) await outbox().stage([delivery(i + 1, webhook)], T0);
      // Due in this order: event 3 before 1 before 2 within webhook 1.
      for (const [n, event] of [3, 1, 2, 4, 5, 6].entries()) await outbox().confirm('acme', hex(1000 + event), '{}', at(10 + n));
      const turns = (claimed: { webhookId: string; eventId: string }[]) => claimed.map((d) => [d.webhookId, d.eventId]);
      expect(turns(await outbox().claimDue(at(100), 60_000, 4))).to.deep.equal([
        [hex(1), hex(1003)],
        [hex(2), hex(1004)],
        [hex(3), hex(1006)],
        [hex(1), hex(1001)],
      ]);
      // The next claim starts after webhook 1, wraps round, and takes what is left in turn.
      expect(turns(await outbox().claimDue(at(100), 60_000, 10))).to.deep.equal([
        [hex(2), hex(1005)],
        [hex(1), hex(1002)],
      ]);
    });

    it('passes over a webhook once it holds its share, counting the deliveries the caller has in flight', async () => {
      for (let n = 1; n <= 6; n += 1) {
        await outbox().stage([delivery(n, n <= 3 ? 1 : 2)], T0);
        await outbox().confirm('acme', hex(1000 + n), '{}', at(n));
      }
      const webhooksOf = async (share: Record<number, number>) => {
        const inFlight = new Map(Object.entries(share).map(([webhook, count]) => [hex(Number(webhook)), count]));
        return (await outbox().claimDue(at(100), 60_000, 10, { perReceiver: 2, inFlight })).map((d) => d.webhookId);
      };
      expect(await webhooksOf({ 1: 1 })).to.deep.equal([hex(1), hex(2), hex(2)]);
      expect(await webhooksOf({ 1: 2, 2: 0 })).to.deep.equal([hex(2)]);
      expect(await webhooksOf({ 1: 3, 2: 3 })).to.deep.equal([]);
      expect((await outbox().claimDue(at(100), 60_000, 10)).map((d) => d.eventId)).to.deep.equal([hex(1002), hex(1003)]);
    });

    it('passes over every webhook of a tenant once the tenant holds its share, counting what the caller has in flight', async () => {
      // acme has webhooks 1-3, two deliveries due each; other has webhook 4, two due.
      for (const n of [1, 2, 3]) await stores().webhooks.insert(webhookRecord(n));
      await stores().webhooks.insert(webhookRecord(4, { tenantId: 'other' }));
      for (let n = 1; n <= 8; n += 1) {
        const webhook = Math.ceil(n / 2);
        await outbox().stage([delivery(n, webhook, webhook === 4 ? { tenantId: 'other' } : {})], T0);
        await outbox().confirm(webhook === 4 ? 'other' : 'acme', hex(1000 + n), '{}', at(n));
      }
      const claim = async (limit: number, byTenant: Record<string, number>) => {
        const share = { perReceiver: 10, inFlight: new Map<string, number>(), perTenant: 3, inFlightByTenant: new Map(Object.entries(byTenant)) };
        return (await outbox().claimDue(at(100), 60_000, limit, share)).map((d) => d.tenantId);
      };
      // acme holds 2 of its 3 places: one more of acme's, then other's, none of acme's webhooks after that.
      expect((await claim(10, { acme: 2 })).sort()).to.deep.equal(['acme', 'other', 'other']);
      // acme at its share: none of its webhooks, those it has nothing in flight on included.
      expect(await claim(10, { acme: 3 })).to.deep.equal([]);
      // No share in flight: three of acme's, whatever the limit.
      expect((await claim(10, {})).filter((tenantId) => tenantId === 'acme')).to.have.length(3);
    });

    it('discards an event\'s unconfirmed deliveries only, and hands stale ones to settling once per lease', async () => {
      await outbox().stage([delivery(1)], T0);
      await outbox().stage([delivery(2)], at(5_000));
      const stale = await outbox().claimUnconfirmed(at(1_000), at(6_000), 60_000, 10);
      expect(stale.map((d) => d.eventId)).to.deep.equal([hex(1001)]);
      expect(stale[0]!.attempts).to.equal(0);
      expect(await outbox().claimUnconfirmed(at(1_000), at(6_001), 60_000, 10)).to.deep.equal([]);
      await outbox().discard('acme', hex(1001));
      await outbox().discard('other', hex(1002));
      expect(await outbox().countByStatus()).to.deep.equal({ unconfirmed: 1, pending: 0, delivered: 0, failed: 0 });
    });

    it('lists the webhook\'s deliveries of one type staged after a time, whatever their status, leaving one event out', async () => {
      const gone = (id: number) => ({ type: 'form.deleted', witness: { kind: 'deleted' as const, record: 'form' as const, id: hex(id), data: { id: hex(id) } } });
      await outbox().stage([delivery(1, 1, gone(7)), delivery(1, 2, gone(7))], T0);
      await outbox().stage([delivery(2, 1, gone(7))], at(10));
      await outbox().confirm('acme', hex(1002), '{}', at(11));
      await outbox().stage([delivery(3, 1, gone(8))], at(20));
      await outbox().stage([delivery(4, 1)], at(30)); // another type
      await outbox().stage([delivery(5, 1, { ...gone(7), tenantId: 'other' })], at(40));
      await outbox().stage([delivery(6, 3, gone(7))], at(50)); // another webhook
      const listed = await outbox().listStagedAfter('acme', hex(1), 'form.deleted', T0, hex(1001));
      expect(listed.map((d) => [d.eventId, d.status, d.witness]).sort()).to.deep.equal([
        [hex(1002), 'pending', gone(7).witness],
        [hex(1003), 'unconfirmed', gone(8).witness],
      ]);
      expect(listed[0]!.createdAt).to.be.instanceOf(Date);
      expect((await outbox().listStagedAfter('acme', hex(1), 'form.deleted', at(10), hex(1001))).map((d) => d.eventId)).to.deep.equal([hex(1003)]);
      expect(await outbox().listStagedAfter('acme', hex(1), 'form.deleted', at(-1), hex(1002))).to.have.length(2);
    });

    it('records outcomes, keeps no body once final, and lists the log newest first without unconfirmed deliveries', async () => {
      for (const n of [1, 2, 3]) {
        await outbox().stage([delivery(n)], at(n));
        await outbox().confirm('acme', hex(1000 + n), '{"data":{"values":{"email":"ada@example.com"}}}', at(n));
      }
      await outbox().stage([delivery(4)], at(4));
      const [a, b, c] = await outbox().claimDue(at(10), 60_000, 3);
      await outbox().complete(a!.id, { status: 'delivered', statusCode: 200 }, at(11));
      await outbox().complete(b!.id, { status: 'failed', error: 'HTTP 410', statusCode: 410 }, at(12));
      await outbox().complete(c!.id, { status: 'retry', error: 'HTTP 500', statusCode: 500, nextAttemptAt: at(5_000) }, at(13));
      const log = await outbox().listByWebhook('acme', hex(1), 100);
      expect(log.map((d) => d.eventId)).to.deep.equal([hex(1003), hex(1002), hex(1001)]);
      const byId = new Map(log.map((d) => [d.id, d]));
      expect(byId.get(a!.id)).to.deep.include({ status: 'delivered', lastStatusCode: 200, lastError: null, payload: null });
      expect(byId.get(a!.id)!.deliveredAt!.toISOString()).to.equal(at(11).toISOString());
      expect(byId.get(b!.id)).to.deep.include({ status: 'failed', lastStatusCode: 410, lastError: 'HTTP 410', deliveredAt: null, payload: null });
      // A retry is sent again: it keeps its body, byte for byte.
      expect(byId.get(c!.id)).to.deep.include({ status: 'pending', lastStatusCode: 500, lastError: 'HTTP 500', claimedUntil: null, payload: '{"data":{"values":{"email":"ada@example.com"}}}' });
      expect(await outbox().claimDue(at(4_999), 60_000, 10)).to.deep.equal([]);
      expect(await outbox().claimDue(at(5_000), 60_000, 10)).to.have.length(1);
    });

    it('lists the log in the order deliveries were staged, whatever order their events were confirmed in, a page its newest', async () => {
      for (const n of [1, 2, 3, 4]) await outbox().stage([delivery(n)], at(n));
      for (const n of [3, 1, 4, 2]) await outbox().confirm('acme', hex(1000 + n), '{}', at(10 + n));
      expect((await outbox().listByWebhook('acme', hex(1), 2)).map((d) => d.eventId)).to.deep.equal([hex(1004), hex(1003)]);
      expect((await outbox().listByWebhook('acme', hex(1), 100)).map((d) => d.eventId)).to.deep.equal([hex(1004), hex(1003), hex(1002), hex(1001)]);
    });

    it('takes back the attempt its claim counted when a final outcome came without a request', async () => {
      await outbox().stage([delivery(1), delivery(2)], T0);
      await outbox().confirm('acme', hex(1001), '{}', T0);
      await outbox().confirm('acme', hex(1002), '{}', T0);
      const [a, b] = await outbox().claimDue(at(10), 60_000, 2);
      await outbox().complete(a!.id, { status: 'retry', error: 'HTTP 500', statusCode: 500, nextAttemptAt: at(20) }, at(11));
      await outbox().complete(b!.id, { status: 'failed', error: 'HTTP 410', statusCode: 410 }, at(11));
      const [again] = await outbox().claimDue(at(20), 60_000, 2);
      expect(again).to.deep.include({ id: a!.id, attempts: 2 });
      await outbox().complete(a!.id, { status: 'failed', error: 'webhook is disabled', statusCode: 500, withoutRequest: true }, at(21));
      const byId = new Map((await outbox().listByWebhook('acme', hex(1), 100)).map((d) => [d.id, d]));
      expect(byId.get(a!.id)).to.deep.include({ status: 'failed', attempts: 1, lastStatusCode: 500, lastError: 'webhook is disabled', payload: null });
      expect(byId.get(b!.id)).to.deep.include({ status: 'failed', attempts: 1, lastStatusCode: 410 });
    });

    it('prunes final deliveries beyond the newest `keep`, never pending ones, and removes a webhook\'s log', async () => {
      for (let n = 1; n <= 6; n += 1) {
        await outbox().stage([delivery(n), delivery(n, 2)], at(n));
        await outbox().confirm('acme', hex(1000 + n), '{}', at(n));
      }
      for (const claimed of await outbox().claimDue(at(100), 60_000, 20)) {
        if (claimed.eventId !== hex(1001)) await outbox().complete(claimed.id, { status: 'delivered', statusCode: 204 }, at(101));
      }
      await outbox().prune('acme', hex(1), 3);
      const log = await outbox().listByWebhook('acme', hex(1), 100);
      expect(log.map((d) => d.eventId)).to.deep.equal([hex(1006), hex(1005), hex(1004), hex(1001)]);
      expect(await outbox().listByWebhook('acme', hex(2), 100)).to.have.length(6);
      await outbox().removeByWebhook('acme', hex(2));
      expect(await outbox().listByWebhook('acme', hex(2), 100)).to.deep.equal([]);
      expect(await outbox().countByStatus()).to.deep.equal({ unconfirmed: 0, pending: 1, delivered: 3, failed: 0 });
    });

    it('confirms only the event of its tenant, and a removed webhook\'s unconfirmed deliveries are gone for confirming and settling', async () => {
      await outbox().stage([delivery(1, 1), delivery(1, 2)], T0);
      await outbox().stage([delivery(1, 3, { tenantId: 'other' })], T0);
      await outbox().removeByWebhook('acme', hex(2));
      expect((await outbox().claimUnconfirmed(at(1), at(2), 60_000, 10)).map((d) => [d.tenantId, d.webhookId])).to.have.deep.members([
        ['acme', hex(1)],
        ['other', hex(3)],
      ]);
      await outbox().confirm('acme', hex(1001), '{}', at(60_003));
      await outbox().confirm('acme', hex(1001), '{}', at(60_004)); // idempotent
      expect((await outbox().claimDue(at(60_005), 60_000, 10)).map((d) => d.webhookId)).to.deep.equal([hex(1)]);
      expect(await outbox().countByStatus()).to.deep.equal({ unconfirmed: 1, pending: 1, delivered: 0, failed: 0 });
    });
  });
}
