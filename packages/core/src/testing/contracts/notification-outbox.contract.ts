/**
 * Contract of the NotificationOutbox port: enqueue, atomic claims with a lease, outcomes and
 * retries. Every outbox adapter (memory, Mongo on the double, Mongo on a real server) runs it.
 */
import { expect } from 'chai';
import { isWellFormedId } from '../../shared/ids.js';
import type { NewNotificationJob, NotificationOutbox } from '../../notifications/notification.ports.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

export function notificationOutboxContract(name: string, factory: RepositoryFactory<NotificationOutbox>): void {
  describe(`NotificationOutbox contract: ${name}`, () => {
    const outbox = useRepository(factory);
    const t0 = new Date('2026-01-02T03:00:00.000Z');
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const job = (tenantId = 'acme', formSlug = 'contact'): NewNotificationJob => ({
      tenantId,
      channel: 'email',
      audience: 'admin',
      recipients: ['ops@acme.test'],
      message: {
        formId: 'aaaaaaaaaaaaaaaaaaaaaaaa',
        formSlug,
        formTitle: { en: 'Contact' },
        submissionId: 'bbbbbbbbbbbbbbbbbbbbbbbb',
        values: { email: 'x@y.test', count: 3, agreed: true },
        submittedBy: null,
        submittedAt: new Date('2026-01-02T02:59:59.123Z'),
      },
    });
    const ids = (jobs: ReadonlyArray<{ id: string }>) => jobs.map((j) => j.id);

    describe('when jobs are enqueued', () => {
      it('stores them pending and due now, with every field of the new job', async () => {
        await outbox().enqueue([job()], t0);
        const [stored, ...rest] = await outbox().listByTenant('acme');
        expect(rest).to.have.length(0);
        expect(isWellFormedId(stored?.id)).to.equal(true);
        expect(stored).to.deep.equal({
          ...job(),
          id: stored!.id,
          status: 'pending',
          attempts: 0,
          nextAttemptAt: t0,
          claimedUntil: null,
          lastError: null,
          createdAt: t0,
          updatedAt: t0,
        });
      });

      it('lists a tenant’s jobs newest first and keeps tenants apart', async () => {
        await outbox().enqueue([job('acme', 'first'), job('acme', 'second')], t0);
        await outbox().enqueue([job('other', 'elsewhere')], at(1000));
        await outbox().enqueue([job('acme', 'third')], at(2000));
        expect((await outbox().listByTenant('acme')).map((j) => j.message.formSlug)).to.deep.equal(['third', 'second', 'first']);
        expect((await outbox().listByTenant('other')).map((j) => j.message.formSlug)).to.deep.equal(['elsewhere']);
        expect(await outbox().listByTenant('nobody')).to.deep.equal([]);
      });
    });

    describe('when due jobs are claimed', () => {
      it('claims a due job once per lease, counting the attempt', async () => {
        await outbox().enqueue([job()], t0);
        const [claimed] = await outbox().claimDue(at(10), 60_000, 10);
        expect(claimed?.attempts).to.equal(1);
        expect(claimed?.claimedUntil?.toISOString()).to.equal(at(60_010).toISOString());
        expect(await outbox().claimDue(at(20), 60_000, 10)).to.deep.equal([]);
        expect(await outbox().claimDue(at(60_009), 60_000, 10)).to.deep.equal([]);
      });

      it('lets another dispatcher claim the job once the lease has expired', async () => {
        await outbox().enqueue([job()], t0);
        await outbox().claimDue(t0, 1000, 10);
        const [again] = await outbox().claimDue(at(1000), 1000, 10);
        expect(again?.attempts).to.equal(2);
        expect(again?.claimedUntil?.toISOString()).to.equal(at(2000).toISOString());
      });

      it('claims at most `limit` jobs per call', async () => {
        await outbox().enqueue([job(), job(), job(), job(), job()], t0);
        const sizes = [];
        for (let round = 0; round < 4; round++) sizes.push((await outbox().claimDue(t0, 60_000, 2)).length);
        expect(sizes).to.deep.equal([2, 2, 1, 0]);
      });

      it('never gives one job to two concurrent claimers', async () => {
        await outbox().enqueue(Array.from({ length: 12 }, () => job()), t0);
        const rounds = await Promise.all(Array.from({ length: 5 }, () => outbox().claimDue(t0, 60_000, 4)));
        const claimed = rounds.flatMap(ids);
        expect(claimed).to.have.length(12);
        expect(new Set(claimed).size).to.equal(12);
      });

      it('does not claim jobs of a later attempt before they are due', async () => {
        await outbox().enqueue([job()], t0);
        const [claimed] = await outbox().claimDue(t0, 60_000, 1);
        await outbox().complete(claimed!.id, { status: 'retry', error: 'smtp 451', nextAttemptAt: at(5000) }, at(100));
        expect(await outbox().claimDue(at(4999), 60_000, 1)).to.deep.equal([]);
        const [retried] = await outbox().claimDue(at(5000), 60_000, 1);
        expect(retried?.id).to.equal(claimed!.id);
        expect(retried?.attempts).to.equal(2);
        expect(retried?.lastError).to.equal('smtp 451');
      });
    });

    describe('when an attempt is completed', () => {
      const completeOne = async (outcome: Parameters<NotificationOutbox['complete']>[1]) => {
        await outbox().enqueue([job()], t0);
        const [claimed] = await outbox().claimDue(t0, 60_000, 1);
        await outbox().complete(claimed!.id, outcome, at(500));
        const [stored] = await outbox().listByTenant('acme');
        return stored!;
      };

      it('marks a sent job sent, releases it and never claims it again', async () => {
        const stored = await completeOne({ status: 'sent' });
        expect(stored).to.include({ status: 'sent', attempts: 1, claimedUntil: null, lastError: null });
        expect(stored.updatedAt.toISOString()).to.equal(at(500).toISOString());
        expect(await outbox().claimDue(at(120_000), 60_000, 10)).to.deep.equal([]);
      });

      it('records why a job was skipped', async () => {
        const stored = await completeOne({ status: 'skipped', reason: 'SMTP_URL is not configured' });
        expect(stored).to.include({ status: 'skipped', lastError: 'SMTP_URL is not configured', claimedUntil: null });
        expect(await outbox().claimDue(at(120_000), 60_000, 10)).to.deep.equal([]);
      });

      it('records the last error of a failed job', async () => {
        const stored = await completeOne({ status: 'failed', error: 'mailbox unavailable' });
        expect(stored).to.include({ status: 'failed', lastError: 'mailbox unavailable', claimedUntil: null });
      });

      it('keeps a retried job pending with its next attempt time and no claim', async () => {
        const stored = await completeOne({ status: 'retry', error: 'timeout', nextAttemptAt: at(9000) });
        expect(stored).to.include({ status: 'pending', lastError: 'timeout', claimedUntil: null, attempts: 1 });
        expect(stored.nextAttemptAt.toISOString()).to.equal(at(9000).toISOString());
      });

      it('ignores an unknown or malformed job id', async () => {
        await outbox().enqueue([job()], t0);
        await outbox().complete('cccccccccccccccccccccccc', { status: 'sent' }, at(500));
        await outbox().complete('not-an-id', { status: 'sent' }, at(500));
        const [stored] = await outbox().listByTenant('acme');
        expect(stored).to.include({ status: 'pending', attempts: 0 });
        expect(stored?.updatedAt.toISOString()).to.equal(t0.toISOString());
      });
    });

    it('returns copies: changing a result does not change the store', async () => {
      await outbox().enqueue([job()], t0);
      const [listed] = await outbox().listByTenant('acme');
      (listed!.recipients as string[]).push('intruder@evil.test');
      (listed!.message.values as Record<string, unknown>).email = 'changed';
      const [again] = await outbox().listByTenant('acme');
      expect(again?.recipients).to.deep.equal(['ops@acme.test']);
      expect(again?.message.values.email).to.equal('x@y.test');
    });
  });
}
