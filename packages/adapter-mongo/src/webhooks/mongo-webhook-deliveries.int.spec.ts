/**
 * How the webhook outbox's prune reads the log on MongoDB (inspected on the collection double):
 * its delete names `tenant_webhook_status_created`, which binds the status, so a receiver's
 * pending backlog behind the log is not read by every final outcome (decision 0841).
 */
import { expect } from 'chai';
import type { NewWebhookDelivery } from '@cms/core';
import { newId } from '@cms/core/internal';
import { Collections, INDEXES } from '../storage/mongo-collections.js';
import { CommandCounter } from '../testing/command-counter.js';
import { useDocumentLayout } from '../testing/document-layout.js';
import { unservedQuery } from '../testing/index-coverage.js';

describe('Mongo webhook delivery log', () => {
  const { db, repos, stored } = useDocumentLayout();
  const webhookId = newId();
  const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1) + seconds * 1000);
  const stage = async (seconds: number): Promise<string> => {
    const eventId = newId();
    const delivery: NewWebhookDelivery = { tenantId: 'acme', webhookId, eventId, type: 'form.created', witness: { kind: 'form', id: newId() }, trace: null };
    await repos().webhookDeliveries.stage([delivery], at(seconds));
    await repos().webhookDeliveries.confirm('acme', eventId, '{}', at(seconds));
    return eventId;
  };

  describe('when a final outcome prunes it behind a pending backlog', () => {
    it('deletes the final deliveries beyond the log through the index that holds their status, and keeps every pending one', async () => {
      const outbox = repos().webhookDeliveries;
      for (const seconds of [1, 2, 3]) await stage(seconds);
      for (const claimed of await outbox.claimDue(at(10), 60_000, 10)) await outbox.complete(claimed.id, { status: 'delivered', statusCode: 204 }, at(11));
      // The receiver is down: what was staged since waits, the oldest of it behind the log of 3.
      for (let seconds = 20; seconds < 30; seconds += 1) await stage(seconds);

      const counter = CommandCounter.onDouble(db());
      await outbox.prune('acme', webhookId, 3);
      const deletes = counter.documents().filter((command) => command.delete === Collections.webhookDeliveries);
      counter.detach();

      expect(stored(Collections.webhookDeliveries).map((document) => document.status)).to.deep.equal(Array(10).fill('pending'));
      expect(deletes).to.have.length(1);
      const [{ filter, hint }] = deletes as [{ filter: Record<string, unknown>; hint: unknown }];
      expect(hint).to.equal('tenant_webhook_status_created');
      const index = INDEXES.find((candidate) => candidate.name === hint)!;
      expect(unservedQuery([index], filter, undefined)).to.equal(null);
      // Every field the delete binds is a key of its index, the status before the time: the scan
      // reads final deliveries only, never the backlog.
      expect(Object.keys(index.keys)).to.deep.equal(['tenantId', 'webhookId', 'status', 'createdAt', '_id']);
      expect(Object.keys(filter).filter((field) => !field.startsWith('$'))).to.have.members(['tenantId', 'webhookId', 'status']);
    });
  });

  describe('when the hinted index is missing', () => {
    it('fails the prune as the server does, instead of scanning without it', async () => {
      const outbox = repos().webhookDeliveries;
      for (const seconds of [1, 2]) await stage(seconds);
      for (const claimed of await outbox.claimDue(at(10), 60_000, 10)) await outbox.complete(claimed.id, { status: 'failed', statusCode: 410, error: 'HTTP 410' }, at(11));
      await db().collectionDouble(Collections.webhookDeliveries).dropIndexForTest('tenant_webhook_status_created');
      const error = await outbox.prune('acme', webhookId, 1).catch((e: Error) => e);
      expect((error as Error).message).to.match(/hint provided does not correspond to an existing index/);
    });
  });
});
