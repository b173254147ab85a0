import { expect } from 'chai';
import sinon from 'sinon';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { ManualClock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import type { Form, FormNotifications } from './form.js';
import { MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { DispatchNotifications } from '../notifications/dispatch-notifications.use-case.js';
import { RecoverSubmissionNotifications } from './recover-submission-notifications.use-case.js';
import { submissionNotificationJobs } from './submission-notification-jobs.js';

const ALL_ON: FormNotifications = {
  enabled: true,
  email: { admin: { enabled: true, recipients: ['ops@acme.test'] }, submitter: { enabled: true, field: 'email' } },
  push: { admin: { enabled: true }, submitter: { enabled: false } },
};
const SUBMITTED = new Date('2026-03-04T05:00:00.000Z');
const DUE = new Date('2026-03-04T05:01:00.000Z');

describe('RecoverSubmissionNotifications', () => {
  const setup = async (notifications: FormNotifications = ALL_ON, batchSize = 10) => {
    const forms = new MemoryFormRepository();
    const form: Form = { ...formRecord('acme', 'notify'), notifications };
    await forms.insert(form);
    const submissions = new MemorySubmissionRepository();
    const outbox = new MemoryNotificationOutbox();
    const clock = new ManualClock('2026-03-04T05:02:00.000Z');
    const logger: Logger & { warn: sinon.SinonSpy; error: sinon.SinonSpy } = { info: sinon.spy(), warn: sinon.spy(), error: sinon.spy() };
    const recover = new RecoverSubmissionNotifications(forms, submissions, outbox, { leaseMs: 60_000, batchSize }, clock, logger);
    /** A submission stored by a submit whose process died before it stored the jobs. */
    const unnotified = async (recoverAt = DUE) => {
      const submission = submissionRecord('acme', form.id, { values: { name: 'Ada', email: 'ada@example.org' }, createdAt: SUBMITTED, updatedAt: SUBMITTED, notificationsRecoverAt: recoverAt });
      await submissions.insert(submission);
      return submission;
    };
    const kinds = async (submissionId: string) => (await outbox.listBySubmission('acme', form.id, submissionId)).map((job) => `${job.channel}/${job.audience}`).sort();
    return { forms, form, submissions, outbox, clock, logger, recover, unnotified, kinds };
  };

  it('enqueues the jobs the form asks for once the submission’s time has come, and takes its marker off', async () => {
    const { recover, unnotified, kinds, submissions, outbox, logger } = await setup();
    const submission = await unnotified();
    const early = await unnotified(new Date('2026-03-04T05:02:00.001Z'));
    expect(await recover.execute()).to.equal(3);
    expect(await kinds(submission.id)).to.deep.equal(['email/admin', 'email/submitter', 'push/admin']);
    expect(await kinds(early.id)).to.deep.equal([]);
    const jobs = await outbox.listBySubmission('acme', submission.formId, submission.id);
    expect(jobs.find((job) => job.audience === 'submitter')?.recipients).to.deep.equal(['ada@example.org']);
    expect(jobs[0]!.message).to.deep.include({ submissionId: submission.id, values: { name: 'Ada', email: 'ada@example.org' }, submittedAt: SUBMITTED });
    expect(await submissions.findById('acme', submission.id)).not.to.have.property('notificationsRecoverAt');
    expect(logger.warn.calledWith('notification jobs recovered', { tenantId: 'acme', formId: submission.formId, submissionId: submission.id, jobs: 3 })).to.equal(true);
    expect(await recover.execute()).to.equal(0);
  });

  it('adds only the kinds the outbox does not hold, so a submit that stored its jobs and died before the confirm sends nothing twice', async () => {
    const { recover, unnotified, kinds, outbox, form } = await setup();
    const submission = await unnotified();
    const [emailAdmin] = submissionNotificationJobs(form, submission);
    await outbox.enqueue([emailAdmin!], SUBMITTED);
    expect(await recover.execute()).to.equal(2);
    expect(await kinds(submission.id)).to.deep.equal(['email/admin', 'email/submitter', 'push/admin']);
  });

  it('enqueues nothing for a submission whose form is gone or sends no notifications now, and takes the marker off', async () => {
    const { recover, unnotified, submissions, forms, form, outbox } = await setup();
    await unnotified();
    await forms.delete('acme', form.id);
    expect(await recover.execute()).to.equal(0);
    expect(await submissions.claimUnnotified(new Date('2030-01-01T00:00:00.000Z'), 1, 10)).to.deep.equal([]);
    expect(await outbox.listByTenant('acme')).to.deep.equal([]);
  });

  it('drops what it enqueued when the submission was erased meanwhile', async () => {
    const { recover, unnotified, submissions, outbox } = await setup();
    const submission = await unnotified();
    const enqueue = outbox.enqueue.bind(outbox);
    sinon.stub(outbox, 'enqueue').callsFake(async (jobs, now) => {
      await submissions.delete('acme', submission.id);
      await enqueue(jobs, now);
    });
    await recover.execute();
    expect(await outbox.listByTenant('acme')).to.deep.equal([]);
  });

  it('goes on past a submission it cannot recover, logs it, and finds it again once the lease is over', async () => {
    const { recover, unnotified, kinds, outbox, logger, clock } = await setup();
    const failing = await unnotified(new Date('2026-03-04T05:00:30.000Z'));
    const next = await unnotified();
    const enqueue = outbox.enqueue.bind(outbox);
    const stub = sinon.stub(outbox, 'enqueue').callsFake(async (jobs, now) => {
      if (jobs[0]!.message.submissionId === failing.id) throw new Error('outbox down');
      await enqueue(jobs, now);
    });
    expect(await recover.execute()).to.equal(3);
    expect(await kinds(next.id)).to.have.length(3);
    expect(logger.error.calledWith('notification recovery failed', { tenantId: 'acme', formId: failing.formId, submissionId: failing.id, error: 'outbox down' })).to.equal(true);
    expect(await recover.execute()).to.equal(0); // still leased
    stub.restore();
    clock.advance(60_000);
    expect(await recover.execute()).to.equal(3);
    expect(await kinds(failing.id)).to.have.length(3);
  });

  it('claims each submission once a pass, however long the pass takes', async () => {
    const { recover, unnotified, outbox, clock } = await setup(ALL_ON, 1);
    await unnotified();
    await unnotified();
    let calls = 0;
    const stub = sinon.stub(outbox, 'enqueue').callsFake(async () => {
      clock.advance(61_000); // a slow store: each failing call outlasts a lease
      if ((calls += 1) <= 4) throw new Error('outbox down'); // then it works: a pass that claims again ends
    });
    expect(await recover.execute()).to.equal(0);
    expect(stub.callCount).to.equal(2);
  });

  it('finds the jobs a submit sent before it died, also when finished jobs are kept for no time (NOTIFY_KEEP_HOURS=0), so none is sent twice', async () => {
    const { forms, submissions, outbox, unnotified, form, logger } = await setup();
    const tenants = new MemoryTenantRepository();
    await tenants.insert({ id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: [], createdAt: SUBMITTED });
    const sent: string[] = [];
    const senders = { email: { send: async (message: { to: readonly string[] }) => void sent.push(`email:${message.to.join()}`) }, push: { send: async () => void sent.push('push') } };
    const policy = { maxAttempts: 3, retryBaseMs: 1000, retryMaxMs: 5000, leaseMs: 60_000, batchSize: 10, keepFinishedMs: 0 };
    const clock = new ManualClock(new Date(SUBMITTED.getTime() - 30_000).toISOString());
    const recovery = new RecoverSubmissionNotifications(forms, submissions, outbox, policy, clock, logger);
    const dispatch = new DispatchNotifications(outbox, tenants, senders, policy, clock, logger, recovery);
    await dispatch.execute(); // its first pass keeps house: nothing yet
    clock.set(SUBMITTED);
    const submission = await unnotified(); // a submit stored its submission and its jobs, and died before the confirm
    await outbox.enqueue(submissionNotificationJobs(form, submission), SUBMITTED);
    expect((await dispatch.execute()).sent).to.equal(3);
    clock.advance(30_000); // keeps house: the marker is not due, and the sent jobs are too young to go
    await dispatch.execute();
    expect(await outbox.listBySubmission('acme', form.id, submission.id)).to.have.length(3);
    clock.advance(60_000); // the marker is due: the recovery finds the three jobs and adds none
    await dispatch.execute();
    expect(sent.sort()).to.deep.equal(['email:ada@example.org', 'email:ops@acme.test', 'push']);
    expect(await submissions.findById('acme', submission.id)).not.to.have.property('notificationsRecoverAt');
    clock.advance(120_000); // past the marker's time and a lease: they go
    await dispatch.execute();
    expect(await outbox.listBySubmission('acme', form.id, submission.id)).to.deep.equal([]);
  });

  it('claims round after round until a round finds fewer than a batch', async () => {
    const { recover, unnotified, outbox } = await setup({ ...ALL_ON, email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: null } } }, 2);
    for (let i = 0; i < 5; i++) await unnotified();
    expect(await recover.execute()).to.equal(5);
    expect(await outbox.listByTenant('acme')).to.have.length(5);
  });
});
