/**
 * The NotificationOutbox contract: what every outbox (memory, MongoDB) must do for the dispatcher
 * to send each job once, retry it on time and never lose it.
 */
import { expect } from 'chai';
import type { NewNotificationJob, NotificationJob, NotificationOutbox } from '../../notifications/notification.ports.js';
import { sampleNotificationJob } from '../notification-records.js';
import { useRepository, type RepositoryFactory } from './contract-fixture.js';

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const LEASE = 60_000;


export function notificationOutboxContract(name: string, factory: RepositoryFactory<NotificationOutbox>): void {
  describe(`NotificationOutbox contract: ${name}`, () => {
    const outbox = useRepository(factory);
    const enqueueOne = async (overrides: Partial<NewNotificationJob> = {}, now = T0): Promise<NotificationJob> => {
      const before = new Set((await outbox().listByTenant(overrides.tenantId ?? 'acme')).map((job) => job.id));
      await outbox().enqueue([sampleNotificationJob(overrides)], now);
      const added = (await outbox().listByTenant(overrides.tenantId ?? 'acme')).filter((job) => !before.has(job.id));
      expect(added).to.have.length(1);
      return added[0]!;
    };
    const find = async (id: string, tenantId = 'acme') => (await outbox().listByTenant(tenantId)).find((job) => job.id === id);

    describe('when jobs are enqueued', () => {
      it('stores each as pending, due now, unclaimed, with its message intact', async () => {
        await outbox().enqueue([sampleNotificationJob(), sampleNotificationJob({ channel: 'push', recipients: [] })], T0);
        const jobs = await outbox().listByTenant('acme');
        expect(jobs).to.have.length(2);
        for (const job of jobs) {
          expect(job.id).to.match(/^[a-f0-9]{24}$/);
          expect(job).to.deep.include({ tenantId: 'acme', audience: 'admin', status: 'pending', attempts: 0, claimedUntil: null, lastError: null });
          expect(job.nextAttemptAt.toISOString()).to.equal(T0.toISOString());
          expect(job.createdAt.toISOString()).to.equal(T0.toISOString());
          expect(job.message).to.deep.equal(sampleNotificationJob().message);
          expect(job.message.submittedAt).to.be.instanceOf(Date);
        }
        expect(jobs.map((job) => job.channel).sort()).to.deep.equal(['email', 'push']);
        expect(new Set(jobs.map((job) => job.id)).size).to.equal(2);
      });

      it('keeps the trace of the submit behind a job, and a job without one (stored before traces were kept) has none', async () => {
        const trace = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '01', requestId: 'req-1' };
        const traced = await enqueueOne({ channel: 'push', recipients: [], trace });
        const untraced = await enqueueOne({ channel: 'push', recipients: [] });
        expect(traced.trace).to.deep.equal(trace);
        expect(untraced).not.to.have.property('trace');
        const claimed = new Map((await outbox().claimDue(at(5), LEASE, 10)).map((job) => [job.id, job]));
        expect(claimed.get(traced.id)?.trace).to.deep.equal(trace);
        expect(claimed.get(untraced.id)).to.deep.include({ status: 'pending', attempts: 1 }).and.not.have.property('trace');
      });

      it('accepts an empty batch', async () => {
        await outbox().enqueue([], T0);
        expect(await outbox().listByTenant('acme')).to.deep.equal([]);
      });
    });

    describe('when due jobs are claimed', () => {
      it('claims a due job once: counts the attempt and holds it for the lease', async () => {
        const job = await enqueueOne();
        const claimed = await outbox().claimDue(at(5), LEASE, 10);
        expect(claimed.map((c) => c.id)).to.deep.equal([job.id]);
        expect(claimed[0]).to.deep.include({ status: 'pending', attempts: 1 });
        expect(claimed[0]?.claimedUntil?.toISOString()).to.equal(at(5 + LEASE).toISOString());
        expect(claimed[0]?.recipients).to.deep.equal(['ops@acme.test']);
        expect(await outbox().claimDue(at(10), LEASE, 10)).to.deep.equal([]);
        expect(await outbox().claimDue(at(5 + LEASE - 1), LEASE, 10)).to.deep.equal([]);
      });

      it('leaves jobs that are not yet due', async () => {
        const later = await enqueueOne({}, at(1000));
        expect(await outbox().claimDue(at(999), LEASE, 10)).to.deep.equal([]);
        expect((await outbox().claimDue(at(1000), LEASE, 10)).map((c) => c.id)).to.deep.equal([later.id]);
      });

      it('claims at most the limit, and the rest on the next call', async () => {
        await outbox().enqueue(Array.from({ length: 5 }, () => sampleNotificationJob()), T0);
        const first = await outbox().claimDue(T0, LEASE, 3);
        const second = await outbox().claimDue(T0, LEASE, 3);
        expect(first).to.have.length(3);
        expect(second).to.have.length(2);
        expect(new Set([...first, ...second].map((job) => job.id)).size).to.equal(5);
        expect(await outbox().claimDue(T0, LEASE, 3)).to.deep.equal([]);
      });

      it('takes turns between the channels, oldest due first within each, and goes on after the channel the last claim took from', async () => {
        for (const [n, channel] of (['push', 'push', 'push', 'email'] as const).entries()) await outbox().enqueue([sampleNotificationJob({ channel })], at(n));
        const jobs = new Map((await outbox().listByTenant('acme')).map((job) => [job.nextAttemptAt.getTime(), job.id]));
        const [push1, push2, push3, email] = [0, 1, 2, 3].map((n) => jobs.get(at(n).getTime()));
        expect((await outbox().claimDue(at(10), LEASE, 2)).map((job) => job.id)).to.deep.equal([email, push1]);
        expect((await outbox().claimDue(at(10), LEASE, 5)).map((job) => job.id)).to.deep.equal([push2, push3]);
      });

      it('passes over a channel once it holds its share, counting the jobs the caller has in flight', async () => {
        await outbox().enqueue(Array.from({ length: 6 }, (_, n) => sampleNotificationJob({ channel: n < 3 ? 'email' : 'push' })), T0);
        const channelsOf = async (inFlight: Record<string, number>) =>
          (await outbox().claimDue(T0, LEASE, 10, { perReceiver: 2, inFlight: new Map(Object.entries(inFlight)) })).map((job) => job.channel);
        expect(await channelsOf({ email: 1 })).to.deep.equal(['email', 'push', 'push']);
        expect(await channelsOf({ email: 2, push: 1 })).to.deep.equal(['push']);
        expect(await channelsOf({ email: 2, push: 2 })).to.deep.equal([]);
        expect((await outbox().claimDue(T0, LEASE, 10)).map((job) => job.channel)).to.deep.equal(['email', 'email']);
      });

      it('makes a job claimable again once its lease expires (a dispatcher died holding it)', async () => {
        const job = await enqueueOne();
        await outbox().claimDue(T0, LEASE, 10);
        const again = await outbox().claimDue(at(LEASE), LEASE, 10);
        expect(again.map((c) => c.id)).to.deep.equal([job.id]);
        expect(again[0]?.attempts).to.equal(2);
        expect(again[0]?.claimedUntil?.toISOString()).to.equal(at(2 * LEASE).toISOString());
      });

      it('never hands one job to two concurrent claimers', async () => {
        await outbox().enqueue(Array.from({ length: 20 }, () => sampleNotificationJob()), T0);
        const batches = await Promise.all(Array.from({ length: 4 }, () => outbox().claimDue(T0, LEASE, 7)));
        const rest = await outbox().claimDue(T0, LEASE, 20);
        const ids = [...batches.flat(), ...rest].map((job) => job.id);
        expect(ids).to.have.length(20);
        expect(new Set(ids).size).to.equal(20);
        expect((await outbox().listByTenant('acme')).every((job) => job.attempts === 1)).to.equal(true);
      });

      it('returns copies: changing a claimed job changes nothing stored', async () => {
        const job = await enqueueOne();
        const [claimed] = await outbox().claimDue(T0, LEASE, 1);
        (claimed!.recipients as string[]).push('intruder@evil.test');
        (claimed!.message.values as Record<string, unknown>)['name'] = 'Mallory';
        const stored = await find(job.id);
        expect(stored?.recipients).to.deep.equal(['ops@acme.test']);
        expect(stored?.message.values['name']).to.equal('Ada');
      });
    });

    describe('when an attempt is completed', () => {
      for (const [outcome, status, lastError] of [
        [{ status: 'sent' }, 'sent', null],
        [{ status: 'skipped', reason: 'push channel is not configured' }, 'skipped', 'push channel is not configured'],
        [{ status: 'failed', error: 'HTTP 500' }, 'failed', 'HTTP 500'],
      ] as const) {
        it(`records ${status}, releases the claim and never offers the job again`, async () => {
          const job = await enqueueOne();
          await outbox().claimDue(T0, LEASE, 10);
          await outbox().complete(job.id, outcome, at(50));
          const stored = await find(job.id);
          expect(stored).to.deep.include({ status, lastError, attempts: 1, claimedUntil: null });
          expect(stored?.updatedAt.toISOString()).to.equal(at(50).toISOString());
          expect(await outbox().claimDue(at(10 * LEASE), LEASE, 10)).to.deep.equal([]);
        });
      }

      it('records a retry: still pending, with its error, due again only at nextAttemptAt', async () => {
        const job = await enqueueOne();
        await outbox().claimDue(T0, LEASE, 10);
        await outbox().complete(job.id, { status: 'retry', error: 'connection refused', nextAttemptAt: at(30_000) }, at(50));
        const stored = await find(job.id);
        expect(stored).to.deep.include({ status: 'pending', lastError: 'connection refused', attempts: 1, claimedUntil: null });
        expect(stored?.nextAttemptAt.toISOString()).to.equal(at(30_000).toISOString());
        expect(await outbox().claimDue(at(29_999), LEASE, 10)).to.deep.equal([]);
        const again = await outbox().claimDue(at(30_000), LEASE, 10);
        expect(again.map((c) => c.id)).to.deep.equal([job.id]);
        expect(again[0]?.attempts).to.equal(2);
      });

      it('narrows a retry to the recipients it names, and claims it again with only those', async () => {
        const job = await enqueueOne({ recipients: ['boss@acme.test', 'ops@acme.test', 'cfo@acme.test'] });
        await outbox().claimDue(T0, LEASE, 10);
        await outbox().complete(job.id, { status: 'retry', error: '451 try later', nextAttemptAt: at(1_000), recipients: ['ops@acme.test'] }, at(50));
        expect((await find(job.id))?.recipients).to.deep.equal(['ops@acme.test']);
        const [again] = await outbox().claimDue(at(1_000), LEASE, 10);
        expect(again).to.deep.include({ id: job.id, recipients: ['ops@acme.test'], lastError: '451 try later' });
      });

      it('keeps the recipients of a retry that names none, and records a refusal on a sent job', async () => {
        const job = await enqueueOne({ recipients: ['boss@acme.test', 'ops@acme.test'] });
        await outbox().claimDue(T0, LEASE, 10);
        await outbox().complete(job.id, { status: 'retry', error: 'timeout', nextAttemptAt: at(1_000) }, at(50));
        expect((await find(job.id))?.recipients).to.deep.equal(['boss@acme.test', 'ops@acme.test']);
        await outbox().claimDue(at(1_000), LEASE, 10);
        await outbox().complete(job.id, { status: 'sent', error: 'refused ops@acme.test: 550 no such user' }, at(1_050));
        expect(await find(job.id)).to.deep.include({ status: 'sent', lastError: 'refused ops@acme.test: 550 no such user', claimedUntil: null });
      });

      it('ignores an unknown or malformed job id', async () => {
        await outbox().enqueue([sampleNotificationJob()], T0);
        await outbox().complete('cccccccccccccccccccccccc', { status: 'sent' }, at(500));
        await outbox().complete('not-an-id', { status: 'sent' }, at(500));
        const [stored] = await outbox().listByTenant('acme');
        expect(stored).to.include({ status: 'pending', attempts: 0 });
        expect(stored?.updatedAt.toISOString()).to.equal(T0.toISOString());
      });
    });

    describe('when jobs are counted by status', () => {
      it('counts every tenant’s jobs in each status, with 0 for a status no job has', async () => {
        expect(await outbox().countByStatus()).to.deep.equal({ pending: 0, sent: 0, failed: 0, skipped: 0 });
        const sent = await enqueueOne({}, at(0));
        const skipped = await enqueueOne({ tenantId: 'other' }, at(1));
        await enqueueOne({ channel: 'push' }, at(2));
        await outbox().claimDue(at(3), 60_000, 10);
        await outbox().complete(sent.id, { status: 'sent' }, at(4));
        await outbox().complete(skipped.id, { status: 'skipped', reason: 'no sender' }, at(4));
        expect(await outbox().countByStatus()).to.deep.equal({ pending: 1, sent: 1, failed: 0, skipped: 1 });
      });
    });

    describe('when finished jobs are pruned', () => {
      it('deletes every tenant’s sent, failed and skipped jobs whose last attempt was due before the cut, and no pending one', async () => {
        const finished = [await enqueueOne({}, at(0)), await enqueueOne({ tenantId: 'other' }, at(0)), await enqueueOne({ channel: 'push' }, at(0))];
        const recent = await enqueueOne({ audience: 'submitter' }, at(5_000));
        const old = await enqueueOne({ recipients: ['late@example.com'] }, at(0)); // never sent: stays, however old
        await outbox().claimDue(at(6_000), LEASE, 10);
        const outcomes = [{ status: 'sent' }, { status: 'skipped', reason: 'no sender' }, { status: 'failed', error: 'HTTP 500' }] as const;
        for (const [i, job] of finished.entries()) await outbox().complete(job.id, outcomes[i]!, at(6_000));
        await outbox().complete(recent.id, { status: 'sent' }, at(6_000));
        await outbox().complete(old.id, { status: 'retry', error: 'connection refused', nextAttemptAt: at(1_000) }, at(6_000));

        expect(await outbox().pruneFinished(at(0))).to.equal(0); // the cut is exclusive
        expect(await outbox().pruneFinished(at(5_000))).to.equal(3);
        const left = [...(await outbox().listByTenant('acme')), ...(await outbox().listByTenant('other'))];
        expect(left.map((job) => job.id).sort()).to.deep.equal([recent.id, old.id].sort());
        expect(await outbox().pruneFinished(at(10_000))).to.equal(1);
        expect((await outbox().listByTenant('acme')).map((job) => [job.id, job.status])).to.deep.equal([[old.id, 'pending']]);
      });

      // The embedded store keeps finished jobs in the order of their due time (decision 0837):
      // these are the changes that order must follow.
      it('prunes by the due time a late retry outcome gave a finished job, finished twice once, and not a job dropped meanwhile', async () => {
        const [moved, twice, dropped] = [await enqueueOne({}, at(0)), await enqueueOne({ channel: 'push' }, at(0)), await enqueueOne({ tenantId: 'other' }, at(0))];
        await outbox().claimDue(at(1), LEASE, 10);
        for (const job of [moved, twice, dropped]) await outbox().complete(job.id, { status: 'failed', error: 'HTTP 500' }, at(1));
        // A dispatcher whose lease ran out reports a retry after another's final outcome.
        await outbox().complete(moved.id, { status: 'retry', error: 'timeout', nextAttemptAt: at(8_000) }, at(2));
        await outbox().complete(twice.id, { status: 'sent' }, at(2));
        expect(await outbox().dropJobs('other', dropped.message.formId)).to.equal(1);
        expect(await outbox().pruneFinished(at(5_000))).to.equal(1);
        expect((await outbox().listByTenant('acme')).map((job) => [job.id, job.status])).to.deep.equal([[moved.id, 'failed']]);
        expect(await outbox().pruneFinished(at(8_000))).to.equal(0);
        expect(await outbox().pruneFinished(at(8_001))).to.equal(1);
        expect(await outbox().countByStatus()).to.deep.equal({ pending: 0, sent: 0, failed: 0, skipped: 0 });
      });
    });

    describe('when the jobs of one submission are listed', () => {
      it('lists every job of that submission of the form and tenant, whatever its status, and no other', async () => {
        const { formId, submissionId } = sampleNotificationJob().message;
        const email = await enqueueOne();
        const push = await enqueueOne({ channel: 'push', recipients: [] });
        await outbox().complete(push.id, { status: 'sent' }, at(1));
        const other = { ...sampleNotificationJob().message, submissionId: 'd'.repeat(24) };
        await enqueueOne({ message: other });
        await enqueueOne({ tenantId: 'other' });
        const listed = await outbox().listBySubmission('acme', formId, submissionId);
        expect(listed.map((job) => [job.id, job.status]).sort()).to.deep.equal([[email.id, 'pending'], [push.id, 'sent']].sort());
        expect(await outbox().listBySubmission('nobody', formId, submissionId)).to.deep.equal([]);
        expect(await outbox().listBySubmission('acme', 'c'.repeat(24), submissionId)).to.deep.equal([]);
        expect(await outbox().listBySubmission('acme', 'not-an-id', 'not-an-id')).to.deep.equal([]);
      });

      it('lists a job no more once it is pruned or dropped, and a drop counts it no more', async () => {
        const { formId, submissionId } = sampleNotificationJob().message;
        const pruned = await enqueueOne({}, at(0));
        const dropped = await enqueueOne({ channel: 'push', recipients: [] }, at(0));
        await outbox().complete(pruned.id, { status: 'sent' }, at(1));
        expect(await outbox().pruneFinished(at(1_000))).to.equal(1);
        expect((await outbox().listBySubmission('acme', formId, submissionId)).map((job) => job.id)).to.deep.equal([dropped.id]);
        expect(await outbox().dropJobs('acme', formId, submissionId)).to.equal(1);
        expect(await outbox().listBySubmission('acme', formId, submissionId)).to.deep.equal([]);
        expect(await outbox().dropJobs('acme', formId)).to.equal(0);
        expect(await outbox().countByStatus()).to.deep.equal({ pending: 0, sent: 0, failed: 0, skipped: 0 });
      });
    });

    describe('when jobs are listed', () => {
      it('lists only the tenant’s jobs, newest first', async () => {
        const first = await enqueueOne({}, at(0));
        await enqueueOne({ tenantId: 'other' }, at(1));
        const second = await enqueueOne({ channel: 'push' }, at(2));
        const third = await enqueueOne({ audience: 'submitter' }, at(3));
        expect((await outbox().listByTenant('acme')).map((job) => job.id)).to.deep.equal([third.id, second.id, first.id]);
        expect((await outbox().listByTenant('other')).map((job) => job.tenantId)).to.deep.equal(['other']);
        expect(await outbox().listByTenant('nobody')).to.deep.equal([]);
      });
    });
  });
}
