import { webhookDeliveryOutboxContract, webhookRepositoryContract } from '../testing/contracts/index.js';
import { MemoryWebhookDeliveryOutbox } from './memory-webhook-delivery.outbox.js';
import { MemoryWebhookRepository } from './memory-webhook.repository.js';
import { expect } from 'chai';
import { expectCostIndependentOf, expectLinearCost } from '../testing/cost-growth.js';
import { newId } from '../shared/ids.js';

webhookRepositoryContract('memory', async () => ({ repository: new MemoryWebhookRepository() }));
webhookDeliveryOutboxContract('memory', async () => ({ repository: { outbox: new MemoryWebhookDeliveryOutbox(), webhooks: new MemoryWebhookRepository() } }));

describe('MemoryWebhookDeliveryOutbox', () => {
  describe('when a webhook has a backlog (its receiver was down)', () => {
    it('lists the log and prunes it reading the log’s newest deliveries, not the backlog', async () => {
      const outbox = new MemoryWebhookDeliveryOutbox();
      const T0 = new Date('2026-04-01T10:00:00.000Z');
      const at = (ms: number) => new Date(T0.getTime() + ms);
      const webhookId = newId();
      const stageConfirmed = async (count: number, now: Date) => {
        const deliveries = Array.from({ length: count }, () => ({ tenantId: 'acme', webhookId, eventId: newId(), type: 'form.submitted', witness: { kind: 'form' as const, id: newId() }, trace: null }));
        await outbox.stage(deliveries, now);
        for (const { eventId } of deliveries) await outbox.confirm('acme', eventId, '{}', now);
      };
      const deliverOldest = async () => {
        const [claimed] = await outbox.claimDue(at(10), 60_000, 1);
        await outbox.complete(claimed!.id, { status: 'delivered', statusCode: 204 }, at(10));
      };
      await stageConfirmed(40, at(0));
      for (let i = 0; i < 6; i += 1) await deliverOldest();
      // Each run: one more delivery final, the prune it calls for (more than `keep` final), the log's page.
      const deliverPruneAndList = async () => {
        await deliverOldest();
        await outbox.prune('acme', webhookId, 5);
        expect(await outbox.listByWebhook('acme', webhookId, 100)).to.have.length(100);
      };
      await stageConfirmed(100, at(1));
      await expectCostIndependentOf('deliver, prune and list', deliverPruneAndList, () => stageConfirmed(40_000, at(2)));
    });
  });

  describe('when a deleted webhook’s deliveries are removed', () => {
    it('removes them at a cost linear in their number', async () => {
      await expectLinearCost('removeByWebhook', async (n) => {
        const outbox = new MemoryWebhookDeliveryOutbox();
        const webhookId = newId();
        for (let i = 0; i < n; i += 1) {
          const now = new Date(Date.UTC(2026, 3, 1) + i);
          const eventId = newId(now);
          await outbox.stage([{ tenantId: 'acme', webhookId, eventId, type: 'form.submitted', witness: { kind: 'form' as const, id: newId() }, trace: null }], now);
          await outbox.confirm('acme', eventId, '{}', now);
        }
        const start = performance.now();
        await outbox.removeByWebhook('acme', webhookId);
        const elapsed = performance.now() - start;
        expect(await outbox.listByWebhook('acme', webhookId, 1)).to.deep.equal([]);
        return elapsed;
      }, 5_000);
    });
  });

  describe('when deliveries are counted by status (every scrape of GET /metrics)', () => {
    it('answers without reading the deliveries', async () => {
      const outbox = new MemoryWebhookDeliveryOutbox();
      const now = new Date('2026-04-01T10:00:00.000Z');
      const stage = (count: number) => async () => {
        const deliveries = Array.from({ length: count }, () => ({ tenantId: 'acme', webhookId: newId(), eventId: newId(), type: 'form.submitted', witness: { kind: 'form' as const, id: newId() }, trace: null }));
        await outbox.stage(deliveries, now);
        for (const { eventId } of deliveries) await outbox.confirm('acme', eventId, '{}', now);
      };
      await stage(1)();
      const count = async () => expect((await outbox.countByStatus()).pending).to.be.above(0);
      await expectCostIndependentOf('count', count, stage(40_000), 0.25);
    });
  });
});
