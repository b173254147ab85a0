/** §3 enqueue side over HTTP: a submission's notification jobs land in the outbox; the outbox never fails a submit. */
import { ManualClock, MemoryNotificationOutbox, NotificationOutboxToken, type NewNotificationJob, type NotificationOutbox } from '@cms/core';
import { expect } from 'chai';
import { CapturingLogger, startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, submitForm } from './form-requests.js';

const ALL_ON = {
  enabled: true,
  email: { admin: { enabled: true, recipients: ['ops@acme.test', 'boss@acme.test'] }, submitter: { enabled: true } },
  push: { admin: { enabled: true }, submitter: { enabled: true } },
};

/** Lets fire-and-forget work started during the request finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Submission notifications', () => {
  for (const storage of TEST_STORAGES) {
    describe(`when the outbox works (storage: ${storage})`, () => {
      let api: TestService;
      let outbox: NotificationOutbox;
      before(async () => {
        api = await startTestService({}, { storage });
        outbox = api.service.container.get<NotificationOutbox>(NotificationOutboxToken);
      });
      after(() => api.stop());
      const jobsOf = async (submissionId: string, tenantId = 'tenant-a') => {
        await settle();
        return (await outbox.listByTenant(tenantId)).filter((job) => job.message.submissionId === submissionId);
      };

      it('enqueues one pending job per enabled channel and audience', async () => {
        const form = await createForm(api, 'all-on', { notifications: ALL_ON });
        const submission = await submitForm(api, form.id, { name: 'Ada', email: 'ada@example.org' }, { headers: { 'x-user-id': 'member-1' } });
        const jobs = await jobsOf(submission.id);
        expect(jobs.map((job) => [job.channel, job.audience, job.recipients])).to.have.deep.members([
          ['email', 'admin', ['ops@acme.test', 'boss@acme.test']],
          ['email', 'submitter', ['ada@example.org']],
          ['push', 'admin', []],
          ['push', 'submitter', []],
        ]);
        for (const job of jobs) {
          expect(job).to.include({ tenantId: 'tenant-a', status: 'pending', attempts: 0 });
          expect(job.message).to.deep.include({ formId: form.id, formSlug: 'all-on', submissionId: submission.id, submittedBy: 'member-1' });
          expect(job.message.values).to.deep.equal({ name: 'Ada', email: 'ada@example.org' });
          expect(job.message.submittedAt.toISOString()).to.equal(submission.createdAt);
        }
      });

      it('leaves admin recipients empty when the form names none, and the submitter mail’s too without an address (§3: one job per channel and audience)', async () => {
        const form = await createForm(api, 'no-address', {
          notifications: { ...ALL_ON, email: { admin: { enabled: true }, submitter: { enabled: true } } },
        });
        const submission = await submitForm(api, form.id, { name: 'Ada' });
        const jobs = await jobsOf(submission.id);
        expect(jobs.map((job) => [job.channel, job.audience, job.recipients])).to.have.deep.members([
          ['email', 'admin', []],
          ['email', 'submitter', []],
          ['push', 'admin', []],
          ['push', 'submitter', []],
        ]);
      });

      it('uses the named submitter field', async () => {
        const form = await createForm(api, 'named-field', {
          notifications: { enabled: true, email: { submitter: { enabled: true, field: 'work' } } },
          sections: [{ fields: [{ name: 'home', type: 'email', label: { en: 'H' } }, { name: 'work', type: 'email', label: { en: 'W' } }] }],
        });
        const submission = await submitForm(api, form.id, { home: 'home@example.org', work: 'work@example.org' });
        expect((await jobsOf(submission.id)).map((job) => job.recipients)).to.deep.equal([['work@example.org']]);
      });

      it('enqueues nothing when the form’s notifications are off', async () => {
        const form = await createForm(api, 'off', { notifications: { ...ALL_ON, enabled: false } });
        const submission = await submitForm(api, form.id, { name: 'Ada', email: 'ada@example.org' });
        expect(await jobsOf(submission.id)).to.deep.equal([]);
      });

      it('enqueues for an internal submit too, in the submitting tenant', async () => {
        const form = await createForm(api, 'b-internal', { visibility: 'internal', notifications: { enabled: true, push: { admin: { enabled: true } } } }, { key: TEST_KEYS.b });
        const res = await api.call('POST', `/forms/${form.id}/internal-submit`, { key: TEST_KEYS.b, headers: { 'x-user-id': 'staff' }, body: { values: { name: 'A' } } });
        expect(res.status).to.equal(201);
        const id = res.body.data.submission.id;
        expect((await jobsOf(id, 'tenant-b')).map((job) => [job.tenantId, job.channel, job.audience])).to.deep.equal([['tenant-b', 'push', 'admin']]);
        expect(await jobsOf(id, 'tenant-a')).to.deep.equal([]);
      });
    });
  }

  describe('when the outbox fails', () => {
    let api: TestService;
    let logger: CapturingLogger;
    before(async () => {
      logger = new CapturingLogger();
      const failing: NotificationOutbox = {
        enqueue: async () => {
          throw new Error('outbox unreachable');
        },
        claimDue: async () => [],
        complete: async () => {},
        listByTenant: async () => [],
        dropJobs: async () => 0,
        listBySubmission: async () => [],
        pruneFinished: async () => 0,
        countByStatus: async () => ({ pending: 0, sent: 0, failed: 0, skipped: 0 }),
      };
      api = await startTestService({}, { logger, configure: (container) => void container.rebind(NotificationOutboxToken).toConstantValue(failing) });
    });
    after(() => api.stop());

    it('still answers 201, stores the submission and logs the failure without the values', async () => {
      const form = await createForm(api, 'failing', { notifications: ALL_ON });
      const submission = await submitForm(api, form.id, { name: 'Ada', email: 'ada@example.org' });
      await settle();
      expect((await api.call('GET', `/forms/submission/${submission.id}`)).status).to.equal(200);
      const line = logger.lines.find((entry) => entry.message === 'notification enqueue failed');
      const { requestId, traceId, ...rest } = line!;
      expect(rest).to.deep.equal({
        level: 'error',
        message: 'notification enqueue failed',
        tenantId: 'tenant-a',
        formId: form.id,
        submissionId: submission.id,
        error: 'outbox unreachable',
      });
      // Written after the answer, it still names the request it came from (CONTRACT §8 logging).
      expect(requestId).to.be.a('string').and.not.equal('');
      expect(traceId).to.match(/^[0-9a-f]{32}$/);
    });
  });

  describe('when a submit could not store its jobs', () => {
    /** An outbox that refuses to enqueue until told otherwise. */
    class UnreachableOutbox extends MemoryNotificationOutbox {
      reachable = false;
      override async enqueue(jobs: readonly NewNotificationJob[], now: Date): Promise<void> {
        if (!this.reachable) throw new Error('outbox unreachable');
        await super.enqueue(jobs, now);
      }
    }
    let api: TestService;
    const outbox = new UnreachableOutbox();
    const clock = new ManualClock('2026-05-01T10:00:00.000Z');
    before(async () => {
      // No channel configured: the dispatcher skips each job, which finishes it.
      api = await startTestService({ NOTIFY_POLL_MS: '20' }, { clock, configure: (container) => void container.rebind(NotificationOutboxToken).toConstantValue(outbox) });
    });
    after(() => api.stop());

    it('the service’s dispatcher stores them itself a minute after the submit, once, and settles them (decision 0798)', async () => {
      const form = await createForm(api, 'recovered', { notifications: { enabled: true, push: { admin: { enabled: true } } } });
      const pause = () => new Promise((resolve) => setTimeout(resolve, 100)); // several dispatch passes
      await pause(); // the dispatcher's first pass (its once-a-minute recovery) is behind it
      clock.advance(30_000);
      const submission = await submitForm(api, form.id, { name: 'Ada' }); // its recovery time: 90 s after the start
      const jobs = () => outbox.listBySubmission('tenant-a', form.id, submission.id);
      const until = async (done: (found: Awaited<ReturnType<typeof jobs>>) => boolean) => {
        for (let waited = 0; !done(await jobs()) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
        return jobs();
      };
      await pause(); // the submit's own enqueue has failed
      outbox.reachable = true;
      clock.advance(30_000); // a minute after the first pass: the recovery runs, before the submission's time
      await pause();
      expect(await jobs(), 'not before the submission’s recovery time').to.deep.equal([]);
      clock.advance(60_000); // the next minute's recovery: the time has come
      const settled = await until((found) => found.length === 1 && found[0]!.status === 'skipped');
      expect(settled.map((job) => [job.channel, job.audience, job.status, job.message.values])).to.deep.equal([['push', 'admin', 'skipped', { name: 'Ada' }]]);
      clock.advance(120_000);
      await pause();
      expect(await jobs(), 'recovered once').to.have.length(1);
    });
  });

  describe('when finished jobs are older than NOTIFY_KEEP_HOURS', () => {
    let api: TestService;
    const clock = new ManualClock('2026-05-01T10:00:00.000Z');
    before(async () => {
      // No channel configured: the dispatcher skips each job, which finishes it.
      api = await startTestService({ NOTIFY_POLL_MS: '20', NOTIFY_KEEP_HOURS: '1' }, { clock });
    });
    after(() => api.stop());

    it('the service’s dispatcher deletes them at its next clean-up, and keeps the younger ones', async () => {
      const outbox = api.service.container.get<NotificationOutbox>(NotificationOutboxToken);
      const statuses = async () => (await outbox.listByTenant('tenant-a')).map((job) => job.status);
      const until = async (done: (statuses: string[]) => boolean) => {
        for (let waited = 0; !done(await statuses()) && waited < 5000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
        return statuses();
      };
      const form = await createForm(api, 'kept-an-hour', { notifications: { enabled: true, push: { admin: { enabled: true } } } });
      await submitForm(api, form.id, { name: 'Ada' });
      expect(await until((s) => s.length === 1 && s[0] === 'skipped')).to.deep.equal(['skipped']);
      clock.advance(30 * 60_000); // half an hour: kept, though a clean-up is due
      await submitForm(api, form.id, { name: 'Grace' });
      expect(await until((s) => s.length === 2 && s.every((status) => status === 'skipped'))).to.deep.equal(['skipped', 'skipped']);
      clock.advance(31 * 60_000); // the first is past the hour, the second is not
      expect(await until((s) => s.length === 1)).to.deep.equal(['skipped']);
      expect((await outbox.listByTenant('tenant-a'))[0]!.message.values).to.deep.equal({ name: 'Grace' });
    });
  });

  describe('when the outbox hangs', () => {
    let api: TestService;
    before(async () => {
      const hanging: NotificationOutbox = {
        enqueue: () => new Promise(() => {}),
        claimDue: async () => [],
        complete: async () => {},
        listByTenant: async () => [],
        dropJobs: async () => 0,
        listBySubmission: async () => [],
        pruneFinished: async () => 0,
        countByStatus: async () => ({ pending: 0, sent: 0, failed: 0, skipped: 0 }),
      };
      api = await startTestService({ CMS_SHUTDOWN_GRACE_MS: '300' }, { configure: (container) => void container.rebind(NotificationOutboxToken).toConstantValue(hanging) });
    });
    after(() => api.stop());

    it('answers 201 without waiting for it', async () => {
      const form = await createForm(api, 'hanging', { notifications: ALL_ON });
      const res = await api.call('POST', `/forms/${form.id}/submit`, { body: { values: { name: 'Ada' } } });
      expect(res.status).to.equal(201);
    });

    it('stops once its shutdown grace period is over, the enqueue still hanging', async () => {
      const started = performance.now();
      await api.stop();
      expect(performance.now() - started).to.be.within(250, 5000); // waited for the enqueue, then gave up on it
    });
  });
});
