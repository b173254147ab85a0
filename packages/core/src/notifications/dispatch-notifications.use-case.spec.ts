import { expect } from 'chai';
import sinon from 'sinon';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemoryTenantRepository } from '../memory/memory-tenancy.repository.js';
import { ManualClock } from '../shared/clock.js';
import type { Logger } from '../shared/logger.js';
import type { TraceContext } from '../shared/trace-context.js';
import { sampleNotificationJob } from '../testing/notification-records.js';
import { DispatchNotifications, PRUNE_EVERY_MS, retryDelayMs, type NotificationSenders } from './dispatch-notifications.use-case.js';
import type {
  EmailMessage,
  EmailSender,
  EmailSendResult,
  NotificationDeliveryPolicy,
  PushPayload,
  PushSender,
  RefusedRecipient,
} from './notification-delivery.ports.js';
import type { NewNotificationJob } from './notification.ports.js';

class RecordingEmailSender implements EmailSender {
  readonly sent: EmailMessage[] = [];
  /** What the server refuses, one entry per send in turn; none left: it takes every recipient. */
  readonly refusals: Array<readonly RefusedRecipient[]> = [];
  async send(message: EmailMessage): Promise<EmailSendResult> {
    this.sent.push(message);
    return { refused: this.refusals.shift() ?? [] };
  }
}

class RecordingPushSender implements PushSender {
  readonly sent: PushPayload[] = [];
  readonly traces: Array<TraceContext | undefined> = [];
  async send(payload: PushPayload, trace?: TraceContext): Promise<void> {
    this.sent.push(payload);
    this.traces.push(trace);
  }
}

class RecordingLogger implements Logger {
  readonly lines: Array<{ level: string; message: string; fields: Record<string, unknown> }> = [];
  info(message: string, fields: Record<string, unknown> = {}) {
    this.lines.push({ level: 'info', message, fields });
  }
  warn(message: string, fields: Record<string, unknown> = {}) {
    this.lines.push({ level: 'warn', message, fields });
  }
  error(message: string, fields: Record<string, unknown> = {}) {
    this.lines.push({ level: 'error', message, fields });
  }
}

const POLICY: NotificationDeliveryPolicy = { maxAttempts: 5, retryBaseMs: 1000, retryMaxMs: 5000, leaseMs: 60_000, batchSize: 10, keepFinishedMs: 3_600_000 };

describe('DispatchNotifications', () => {
  let clock: ManualClock;
  let outbox: MemoryNotificationOutbox;
  let tenants: MemoryTenantRepository;
  let email: RecordingEmailSender;
  let push: RecordingPushSender;
  let logger: RecordingLogger;

  const dispatcher = (senders: NotificationSenders = { email, push }, policy = POLICY) =>
    new DispatchNotifications(outbox, tenants, senders, policy, clock, logger);
  const enqueue = (overrides: Partial<NewNotificationJob> = {}) => outbox.enqueue([sampleNotificationJob(overrides)], clock.now());
  const jobs = () => outbox.listByTenant('acme');

  beforeEach(async () => {
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    outbox = new MemoryNotificationOutbox();
    tenants = new MemoryTenantRepository();
    email = new RecordingEmailSender();
    push = new RecordingPushSender();
    logger = new RecordingLogger();
    await tenants.insert({ id: 'acme', name: 'Acme', aiTokenLimitMonthly: null, adminEmails: ['boss@acme.test', 'ops@acme.test'], createdAt: clock.now() });
    await tenants.insert({ id: 'lonely', name: 'Lonely', aiTokenLimitMonthly: null, adminEmails: [], createdAt: clock.now() });
  });

  afterEach(() => sinon.restore());

  describe('when an admin e-mail job names recipients', () => {
    it('mails them the rendered submission and marks the job sent', async () => {
      await enqueue({ recipients: ['forms@acme.test', 'forms@acme.test', ' sales@acme.test '] });
      const report = await dispatcher().execute();
      expect(report).to.deep.equal({ claimed: 1, sent: 1, retried: 0, failed: 0, skipped: 0 });
      expect(email.sent).to.have.length(1);
      expect(email.sent[0]?.to).to.deep.equal(['forms@acme.test', 'sales@acme.test']);
      expect(email.sent[0]?.subject).to.equal('New submission: Contact us');
      expect(email.sent[0]?.text).to.contain('Submission: bbbbbbbbbbbbbbbbbbbbbbbb').and.contain('name: Ada');
      const [job] = await jobs();
      expect(job).to.deep.include({ status: 'sent', attempts: 1, lastError: null, claimedUntil: null });
    });
  });

  describe('when finished jobs are older than the policy keeps them', () => {
    it('deletes them on its first pass and then at most once a minute, never a pending job, and logs how many', async () => {
      const keepFinishedMs = 3_600_000;
      await enqueue({ recipients: ['first@acme.test'] });
      await enqueue({ channel: 'push', recipients: [] });
      const dispatch = dispatcher({ email, push }, { ...POLICY, keepFinishedMs });
      expect((await dispatch.execute()).sent).to.equal(2);
      clock.advance(keepFinishedMs - 1);
      await enqueue({ recipients: ['later@acme.test'] }); // due now: pending until the next pass sends it
      await dispatch.execute(); // prunes (a minute has passed) but the two are not old enough yet; sends it
      expect((await jobs()).map((job) => job.status)).to.deep.equal(['sent', 'sent', 'sent']);

      clock.advance(2); // the first two are past the hour; the last pass pruned under a minute ago
      await dispatch.execute();
      expect(await jobs()).to.have.length(3);
      clock.advance(PRUNE_EVERY_MS);
      await enqueue({ recipients: ['pending@acme.test'] });
      await outbox.claimDue(clock.now(), POLICY.leaseMs, 10); // held by another dispatcher: pending, and stays
      await dispatch.execute();
      expect((await jobs()).map((job) => [job.recipients[0], job.status])).to.deep.equal([
        ['pending@acme.test', 'pending'],
        ['later@acme.test', 'sent'],
      ]);
      expect(logger.lines.filter((line) => line.message === 'finished notification jobs deleted').map((line) => line.fields.count)).to.deep.equal([2]);
    });
  });

  describe('when it recovers the jobs of submits that died', () => {
    it('runs the recovery on its first pass and then at most once a minute, before it claims, so a recovered job is sent in the same pass', async () => {
      let runs = 0;
      const recovery = { execute: async () => (runs += 1, await enqueue({ recipients: [`recovered-${runs}@acme.test`] }), 1) };
      const dispatch = new DispatchNotifications(outbox, tenants, { email, push }, POLICY, clock, logger, recovery);
      expect((await dispatch.execute()).sent).to.equal(1);
      clock.advance(PRUNE_EVERY_MS - 1);
      await dispatch.execute();
      expect(runs).to.equal(1);
      clock.advance(1);
      expect((await dispatch.execute()).sent).to.equal(1);
      expect(runs).to.equal(2);
      expect(email.sent.map((mail) => mail.to)).to.deep.equal([['recovered-1@acme.test'], ['recovered-2@acme.test']]);
    });

    it('keeps recovering once a minute after the clock stepped back, not only once it has caught up', async () => {
      let runs = 0;
      const recovery = { execute: async () => ((runs += 1), 0) };
      const dispatch = new DispatchNotifications(outbox, tenants, { email, push }, POLICY, clock, logger, recovery);
      await dispatch.execute();
      clock.advance(-10 * 3_600_000); // the host's clock was ten hours fast, and NTP stepped it back
      for (let pass = 0; pass < 3; pass += 1) {
        await dispatch.execute();
        clock.advance(PRUNE_EVERY_MS);
      }
      expect(runs).to.equal(4);
    });

    it('logs a failing recovery and still sends and prunes', async () => {
      await enqueue();
      const recovery = { execute: () => Promise.reject(new Error('store down')) };
      const dispatch = new DispatchNotifications(outbox, tenants, { email, push }, POLICY, clock, logger, recovery);
      expect((await dispatch.execute()).sent).to.equal(1);
      expect(logger.lines.find((line) => line.message === 'notification jobs could not be recovered')).to.deep.equal({ level: 'warn', message: 'notification jobs could not be recovered', fields: { error: 'store down' } });
    });
  });

  describe('when an admin e-mail job names no recipients', () => {
    it("sends to the tenant's admin addresses", async () => {
      await enqueue({ recipients: [] });
      await dispatcher().execute();
      expect(email.sent.map((m) => m.to)).to.deep.equal([['boss@acme.test', 'ops@acme.test']]);
      expect((await jobs())[0]?.status).to.equal('sent');
    });

    it('leaves out addresses stored before the plain-address rule (lists, display names), and skips a job left with none', async () => {
      await tenants.insert({ id: 'legacy', name: 'Legacy', aiTokenLimitMonthly: null, adminEmails: ['Boss<evil@attacker.test>', 'ok@legacy.test', 'a@b.test;root'], createdAt: clock.now() });
      await enqueue({ tenantId: 'legacy', recipients: [] });
      await enqueue({ recipients: ['boss@example.org,root', 'x y@z.test'] });
      const report = await dispatcher().execute();
      expect(email.sent.map((m) => m.to)).to.deep.equal([['ok@legacy.test']]);
      expect(report.skipped).to.equal(1);
    });

    it('skips the job, saying why, when the tenant has no admin addresses', async () => {
      await enqueue({ tenantId: 'lonely', recipients: [] });
      const report = await dispatcher().execute();
      expect(report.skipped).to.equal(1);
      expect(email.sent).to.deep.equal([]);
      const [job] = await outbox.listByTenant('lonely');
      expect(job).to.deep.include({ status: 'skipped', lastError: 'no recipients: the form names none and the tenant has no admin e-mail addresses' });
    });

    it('skips the job when the tenant no longer exists', async () => {
      await enqueue({ tenantId: 'gone', recipients: [] });
      await dispatcher().execute();
      expect((await outbox.listByTenant('gone'))[0]?.status).to.equal('skipped');
    });
  });

  describe('when a submitter e-mail job has no address', () => {
    it('skips it instead of writing to the admins', async () => {
      await enqueue({ audience: 'submitter', recipients: [] });
      await dispatcher().execute();
      expect(email.sent).to.deep.equal([]);
      expect((await jobs())[0]).to.deep.include({ status: 'skipped', lastError: 'no recipients: the submission has no e-mail address' });
    });
  });

  describe('when a push job is due', () => {
    it('posts the payload with the job id to de-duplicate on, and marks it sent', async () => {
      await enqueue({ channel: 'push', audience: 'submitter', recipients: [] });
      await dispatcher().execute();
      const [job] = await jobs();
      expect(push.sent).to.have.length(1);
      expect(push.sent[0]).to.deep.include({ id: job?.id, event: 'form.submission', tenantId: 'acme', audience: 'submitter', attempt: 1 });
      expect(job?.status).to.equal('sent');
    });

    it('sends each attempt as a new span of the trace the job carries, or of a new trace when it carries none', async () => {
      const submit = { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', flags: '00', requestId: 'req-1' };
      sinon.stub(push, 'send').callsFake(async (payload, trace) => {
        push.traces.push(trace);
        if (push.traces.length === 1) throw new Error('push webhook answered HTTP 503');
      });
      await enqueue({ channel: 'push', recipients: [], trace: submit });
      await dispatcher().execute();
      clock.advance(POLICY.retryBaseMs);
      await dispatcher().execute();
      expect((await jobs())[0]?.status).to.equal('sent');
      const [first, second] = push.traces;
      for (const trace of [first, second]) {
        expect(trace).to.include({ traceId: submit.traceId, flags: '00' });
        expect(trace?.spanId).to.match(/^[0-9a-f]{16}$/).and.not.equal(submit.spanId);
      }
      expect(first?.spanId).not.to.equal(second?.spanId);

      await enqueue({ channel: 'push', recipients: [] });
      await dispatcher().execute();
      expect(push.traces[2]?.traceId).to.match(/^[0-9a-f]{32}$/).and.not.equal(submit.traceId);
    });
  });

  describe('when a channel is not configured', () => {
    it('skips its jobs without trying, and still sends the configured one', async () => {
      await enqueue({ channel: 'email' });
      await enqueue({ channel: 'push' });
      const report = await dispatcher({ push }).execute();
      expect(report).to.deep.include({ sent: 1, skipped: 1 });
      const byChannel = Object.fromEntries((await jobs()).map((job) => [job.channel, job]));
      expect(byChannel['email']).to.deep.include({ status: 'skipped', lastError: 'email channel is not configured' });
      expect(byChannel['push']?.status).to.equal('sent');
    });

    it('skips push jobs when push is not configured', async () => {
      await enqueue({ channel: 'push' });
      await dispatcher({ email }).execute();
      expect((await jobs())[0]).to.deep.include({ status: 'skipped', lastError: 'push channel is not configured' });
    });
  });

  describe('when sending fails', () => {
    it('retries with back-off base·2^(n-1), capped, and marks the job failed after maxAttempts', async () => {
      const send = sinon.stub(email, 'send').rejects(new Error('421 try again later'));
      await enqueue();
      const waits: number[] = [];
      for (let attempt = 1; attempt <= POLICY.maxAttempts; attempt += 1) {
        const before = clock.now().getTime();
        await dispatcher().execute();
        const [job] = await jobs();
        expect(job?.attempts).to.equal(attempt);
        expect(job?.lastError).to.equal('421 try again later');
        if (attempt < POLICY.maxAttempts) {
          expect(job?.status).to.equal('pending');
          const wait = job!.nextAttemptAt.getTime() - before;
          waits.push(wait);
          clock.advance(wait - 1);
          expect((await dispatcher().execute()).claimed, 'not due a millisecond early').to.equal(0);
          clock.advance(1);
        } else {
          expect(job?.status).to.equal('failed');
        }
      }
      expect(waits).to.deep.equal([1000, 2000, 4000, 5000]);
      expect(send.callCount).to.equal(5);
      clock.advance(60_000);
      expect((await dispatcher().execute()).claimed).to.equal(0);
      expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.fields['attempt'])).to.deep.equal([1, 2, 3, 4]);
      expect(logger.lines.filter((l) => l.level === 'error')).to.have.length(1);
    });

    it('sends on a later attempt after a failure', async () => {
      sinon.stub(push, 'send').onFirstCall().rejects(new Error('HTTP 500')).onSecondCall().resolves();
      await enqueue({ channel: 'push' });
      expect((await dispatcher().execute()).retried).to.equal(1);
      clock.advance(1000);
      expect((await dispatcher().execute()).sent).to.equal(1);
      expect((await jobs())[0]).to.deep.include({ status: 'sent', attempts: 2 });
    });

    it('never logs recipients or submitted values', async () => {
      sinon.stub(email, 'send').rejects(new Error('boom'));
      await enqueue();
      await dispatcher().execute();
      const logged = JSON.stringify(logger.lines);
      expect(logged).to.contain('boom');
      expect(logged).not.to.contain('ops@acme.test');
      expect(logged).not.to.contain('Ada');
    });
  });

  describe('when the mail server takes a message for some recipients and refuses it for others', () => {
    const greylisted = (address: string): RefusedRecipient => ({ address, transient: true, reply: '451 4.7.1 greylisted, try again' });
    const unknown = (address: string): RefusedRecipient => ({ address, transient: false, reply: '550 5.1.1 no such user' });

    it('retries only those it refused for now, so nobody gets the message twice', async () => {
      email.refusals.push([greylisted('ops@acme.test')]);
      await enqueue({ recipients: ['boss@acme.test', 'ops@acme.test'] });
      expect(await dispatcher().execute()).to.deep.include({ retried: 1 });
      const [job] = await jobs();
      expect(job).to.deep.include({ status: 'pending', recipients: ['ops@acme.test'], lastError: 'the mail server refused 1 of 2 recipients: 451 4.7.1 greylisted, try again' });
      expect(job!.nextAttemptAt.getTime() - clock.now().getTime()).to.equal(1000);
      clock.advance(1000);
      expect(await dispatcher().execute()).to.deep.include({ sent: 1 });
      expect(email.sent.map((m) => m.to)).to.deep.equal([['boss@acme.test', 'ops@acme.test'], ['ops@acme.test']]);
      expect((await jobs())[0]).to.deep.include({ status: 'sent', attempts: 2 });
    });

    it('narrows an admin job that named nobody to the refused admins, not the tenant’s whole list', async () => {
      email.refusals.push([greylisted('boss@acme.test')]);
      await enqueue({ recipients: [] });
      await dispatcher().execute();
      clock.advance(1000);
      await dispatcher().execute();
      expect(email.sent.map((m) => m.to)).to.deep.equal([['boss@acme.test', 'ops@acme.test'], ['boss@acme.test']]);
    });

    it('marks the job sent and names the refusal when the server refused them for good, without retrying', async () => {
      email.refusals.push([unknown('ops@acme.test')]);
      await enqueue({ recipients: ['boss@acme.test', 'ops@acme.test'] });
      expect(await dispatcher().execute()).to.deep.include({ sent: 1 });
      expect((await jobs())[0]).to.deep.include({ status: 'sent', recipients: ['boss@acme.test', 'ops@acme.test'], lastError: 'the mail server refused 1 of 2 recipients: 550 5.1.1 no such user' });
      clock.advance(60_000);
      expect((await dispatcher().execute()).claimed).to.equal(0);
      const warned = logger.lines.find((l) => l.message === 'notification sent; some recipients refused it');
      expect(warned?.level).to.equal('warn');
      expect(JSON.stringify(logger.lines)).not.to.contain('ops@acme.test');
    });

    it('retries the ones refused for now and drops the ones refused for good', async () => {
      email.refusals.push([greylisted('ops@acme.test'), unknown('cfo@acme.test')]);
      await enqueue({ recipients: ['boss@acme.test', 'ops@acme.test', 'cfo@acme.test'] });
      await dispatcher().execute();
      expect((await jobs())[0]).to.deep.include({ recipients: ['ops@acme.test'], lastError: 'the mail server refused 2 of 3 recipients: 451 4.7.1 greylisted, try again; 550 5.1.1 no such user' });
    });

    it('stops at the last attempt: the job is sent to those who took it, and names who did not', async () => {
      email.refusals.push([greylisted('ops@acme.test')]);
      await enqueue({ recipients: ['boss@acme.test', 'ops@acme.test'] });
      await dispatcher(undefined, { ...POLICY, maxAttempts: 1 }).execute();
      expect((await jobs())[0]).to.deep.include({ status: 'sent', recipients: ['boss@acme.test', 'ops@acme.test'], lastError: 'the mail server refused 1 of 2 recipients: 451 4.7.1 greylisted, try again' });
    });
  });

  describe('when earlier claims lapsed without an outcome', () => {
    it('marks the job failed without sending once the claims used up the attempts', async () => {
      await enqueue();
      for (let i = 0; i < POLICY.maxAttempts; i += 1) {
        await outbox.claimDue(clock.now(), POLICY.leaseMs, 10);
        clock.advance(POLICY.leaseMs);
      }
      await dispatcher().execute();
      expect(email.sent).to.deep.equal([]);
      expect((await jobs())[0]).to.deep.include({ status: 'failed', attempts: 6, lastError: 'gave up after 5 attempts without an outcome' });
    });
  });

  describe('when the outcome cannot be recorded', () => {
    it('logs the error and lets the claim lapse rather than throwing', async () => {
      await enqueue();
      sinon.stub(outbox, 'complete').rejects(new Error('store down'));
      const report = await dispatcher().execute();
      expect(report.sent).to.equal(1);
      expect(logger.lines.find((l) => l.level === 'error')?.fields).to.deep.include({ outcome: 'sent', error: 'store down' });
    });
  });

  describe('when more jobs are due than a batch holds', () => {
    it('claims one batch per pass, of which one channel takes every place but one', async () => {
      await outbox.enqueue(Array.from({ length: 5 }, () => sampleNotificationJob()), clock.now());
      await outbox.enqueue([sampleNotificationJob({ channel: 'push' })], clock.now());
      const pass = () => dispatcher(undefined, { ...POLICY, batchSize: 3 }).execute();
      expect(await pass()).to.deep.include({ claimed: 3, sent: 3 });
      expect([email.sent.length, push.sent.length]).to.deep.equal([2, 1]);
      expect(await pass()).to.deep.include({ claimed: 2, sent: 2 });
      expect(await pass()).to.deep.include({ claimed: 1, sent: 1 });
      expect(email.sent).to.have.length(5);
    });
  });

  describe('when two dispatchers run at once over one outbox', () => {
    it('sends each job once', async () => {
      await outbox.enqueue(Array.from({ length: 12 }, (_, i) => sampleNotificationJob({ recipients: [`r${i}@acme.test`] })), clock.now());
      const policy = { ...POLICY, batchSize: 4 };
      const a = dispatcher(undefined, policy);
      const b = dispatcher(undefined, policy);
      for (let pass = 0; pass < 3; pass += 1) await Promise.all([a.execute(), b.execute()]);
      const to = email.sent.map((m) => m.to[0]).sort();
      expect(to).to.have.length(12);
      expect(new Set(to).size).to.equal(12);
      expect((await jobs()).every((job) => job.status === 'sent' && job.attempts === 1)).to.equal(true);
    });
  });
});

describe('retryDelayMs', () => {
  it('doubles from the base and stops at the cap', () => {
    const policy = { retryBaseMs: 1000, retryMaxMs: 10_000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => retryDelayMs(n, policy))).to.deep.equal([1000, 2000, 4000, 8000, 10_000, 10_000]);
  });
});
