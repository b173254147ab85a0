import { expect } from 'chai';
import type { Caller } from '../shared/caller.js';
import sinon from 'sinon';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import type { NotificationOutbox } from '../notifications/notification.ports.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import type { Logger } from '../shared/logger.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { formRecord } from '../testing/form-fixtures.js';
import type { Form, FormNotifications } from './form.js';
import { SubmitForm, type SubmitFormInput } from './submit-form.use-case.js';

/** A submission as the HTTP suites think of it: the caller, the form, the body. */
type SubmitFormCommand = Omit<SubmitFormInput, 'submission'> & { readonly caller: Caller; readonly body: unknown };
const asCall = ({ caller, body, ...rest }: SubmitFormCommand) => [caller, { ...rest, submission: body }] as const;

/** Lets fire-and-forget work started by the use case finish. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SubmitForm', () => {
  const setup = async (forms: Form[], options: { outbox?: NotificationOutbox; captcha?: StaticCaptchaVerifier } = {}) => {
    const formRepo = new MemoryFormRepository();
    for (const form of forms) await formRepo.insert(form);
    const submissions = new MemorySubmissionRepository();
    const outbox = options.outbox ?? new MemoryNotificationOutbox();
    const captcha = options.captcha ?? new StaticCaptchaVerifier(new Map<string, number | undefined>([['good', undefined], ['high', 0.9], ['low', 0.3], ['edge', 0.5]]));
    const logger: Logger & { error: sinon.SinonSpy } = { info: sinon.spy(), warn: sinon.spy(), error: sinon.spy() };
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    const submit = new SubmitForm(formRepo, submissions, captcha, outbox, clock, logger);
    return { submit, submissions, outbox, captcha, logger };
  };
  const publicSubmit = (form: Form | string, overrides: Partial<SubmitFormCommand> = {}): SubmitFormCommand => ({
    caller: guestCaller('acme', undefined, undefined),
    formId: typeof form === 'string' ? form : form.id,
    body: { values: { name: 'Ada' } },
    mode: 'public',
    ...overrides,
  });
  const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (e: { code?: string }) => e.code ?? String(e));

  describe('when a guest submits a public, active form', () => {
    it('stores the submission with empty relations and submittedBy null', async () => {
      const form = formRecord('acme', 'contact');
      const { submit, submissions } = await setup([form]);
      const view = await submit.execute(...asCall(publicSubmit(form, { body: { values: { name: 'Ada', email: 'ada@example.org' } } })));
      expect(view).to.deep.equal({
        id: view.id,
        formId: form.id,
        values: { name: 'Ada', email: 'ada@example.org' },
        relations: {},
        submittedBy: null,
        createdAt: new Date('2026-03-04T05:06:07.890Z'),
        updatedAt: new Date('2026-03-04T05:06:07.890Z'),
      });
      expect(await submissions.findById('acme', view.id)).to.deep.equal({ ...view, tenantId: 'acme' });
    });

    it('records a known user as submittedBy', async () => {
      const form = formRecord('acme', 'contact');
      const { submit } = await setup([form]);
      expect((await submit.execute(...asCall(publicSubmit(form, { caller: userCaller('acme', 'u1') })))).submittedBy).to.equal('u1');
    });
  });

  describe('when the public submit is refused', () => {
    it('checks in the contract’s order: id, existence, active, internal, CAPTCHA, values', async () => {
      const inactiveInternal = formRecord('acme', 'a', { isActive: false, visibility: 'internal', captcha: { enabled: true, provider: 'recaptcha', minScore: 0.5 } });
      const internalGated = formRecord('acme', 'b', { visibility: 'internal', captcha: { enabled: true, provider: 'recaptcha', minScore: 0.5 } });
      const gated = formRecord('acme', 'c', { captcha: { enabled: true, provider: 'recaptcha', minScore: 0.5 } });
      const { submit } = await setup([inactiveInternal, internalGated, gated]);
      const badBody = { body: { nope: true } };
      expect(await codeOf(submit.execute(...asCall(publicSubmit('123', badBody))))).to.equal(ErrorCodes.INVALID_FORM_ID);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(newId(), badBody))))).to.equal(ErrorCodes.FORM_NOT_FOUND);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(inactiveInternal, badBody))))).to.equal(ErrorCodes.FORM_INACTIVE);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(internalGated, badBody))))).to.equal(ErrorCodes.FORM_INTERNAL);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(gated, badBody))))).to.equal(ErrorCodes.FORM_CAPTCHA_REQUIRED);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(gated, { ...badBody, captchaToken: 'bad' }))))).to.equal(ErrorCodes.FORM_CAPTCHA_FAILED);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(gated, { ...badBody, captchaToken: 'good' }))))).to.equal(ErrorCodes.VALIDATION_FAILED);
    });

    it('treats another tenant’s form as missing', async () => {
      const foreign = formRecord('other', 'contact');
      const { submit } = await setup([foreign]);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(foreign))))).to.equal(ErrorCodes.FORM_NOT_FOUND);
    });
  });

  describe('when the form has a CAPTCHA gate', () => {
    const gated = () => formRecord('acme', 'gated', { captcha: { enabled: true, provider: 'hcaptcha', minScore: 0.5 } });
    const cases: Array<[string, string | undefined, string]> = [
      ['no token', undefined, ErrorCodes.FORM_CAPTCHA_REQUIRED],
      ['an empty token', '', ErrorCodes.FORM_CAPTCHA_REQUIRED],
      ['a rejected token', 'bad', ErrorCodes.FORM_CAPTCHA_FAILED],
      ['a score below minScore', 'low', ErrorCodes.FORM_CAPTCHA_FAILED],
      ['a score equal to minScore', 'edge', 'resolved'],
      ['a score above minScore', 'high', 'resolved'],
      ['a verdict without a score', 'good', 'resolved'],
    ];
    for (const [name, captchaToken, outcome] of cases) {
      it(`answers ${outcome} for ${name}`, async () => {
        const form = gated();
        const { submit } = await setup([form]);
        expect(await codeOf(submit.execute(...asCall(publicSubmit(form, { captchaToken }))))).to.equal(outcome);
      });
    }

    it('asks the verifier with the form’s provider and the token', async () => {
      const form = gated();
      const { submit, captcha } = await setup([form]);
      await submit.execute(...asCall(publicSubmit(form, { captchaToken: 'good' })));
      expect(captcha.calls).to.deep.equal([{ provider: 'hcaptcha', token: 'good' }]);
    });

    for (const [name, fail] of [
      ['rejects', (stub: sinon.SinonStub) => stub.rejects(new Error('provider down'))],
      ['throws synchronously', (stub: sinon.SinonStub) => stub.throws(new Error('provider down'))],
    ] as const) {
      it(`fails closed when the verifier ${name}`, async () => {
        const form = gated();
        const captcha = new StaticCaptchaVerifier();
        fail(sinon.stub(captcha, 'verify'));
        const { submit } = await setup([form], { captcha });
        expect(await codeOf(submit.execute(...asCall(publicSubmit(form, { captchaToken: 'good' }))))).to.equal(ErrorCodes.FORM_CAPTCHA_FAILED);
      });
    }

    it('does not ask the verifier when the gate is off', async () => {
      const form = formRecord('acme', 'open');
      const { submit, captcha } = await setup([form]);
      await submit.execute(...asCall(publicSubmit(form, { captchaToken: 'bad' })));
      expect(captcha.calls).to.deep.equal([]);
    });
  });

  describe('when submitting internally', () => {
    it('needs a user before anything else', async () => {
      const { submit } = await setup([]);
      const command = publicSubmit('not-an-id', { mode: 'internal', caller: anonymousCaller('acme') });
      expect(await codeOf(submit.execute(...asCall(command)))).to.equal(ErrorCodes.UNAUTHORIZED);
    });

    it('accepts internal forms and skips the CAPTCHA gate', async () => {
      const form = formRecord('acme', 'internal', { visibility: 'internal', captcha: { enabled: true, provider: 'recaptcha', minScore: 0.5 } });
      const { submit, captcha } = await setup([form]);
      const view = await submit.execute(...asCall(publicSubmit(form, { mode: 'internal', caller: userCaller('acme', 'staff-1') })));
      expect(view.submittedBy).to.equal('staff-1');
      expect(captcha.calls).to.deep.equal([]);
    });

    it('still refuses an inactive form and wrong values', async () => {
      const inactive = formRecord('acme', 'off', { isActive: false });
      const active = formRecord('acme', 'on');
      const { submit } = await setup([inactive, active]);
      const caller = userCaller('acme', 'staff-1');
      expect(await codeOf(submit.execute(...asCall(publicSubmit(inactive, { mode: 'internal', caller }))))).to.equal(ErrorCodes.FORM_INACTIVE);
      expect(await codeOf(submit.execute(...asCall(publicSubmit(active, { mode: 'internal', caller, body: { values: {} } }))))).to.equal(ErrorCodes.VALIDATION_FAILED);
    });
  });

  describe('when the form’s notifications are set', () => {
    const notifying = (settings: Partial<FormNotifications> & { enabled: boolean }): Form => {
      const base = formRecord('acme', 'notify');
      return { ...base, notifications: { ...base.notifications, ...settings } };
    };
    const allOn: FormNotifications = {
      enabled: true,
      email: { admin: { enabled: true, recipients: ['ops@acme.test'] }, submitter: { enabled: true, field: 'email' } },
      push: { admin: { enabled: true }, submitter: { enabled: true } },
    };

    it('enqueues one job per enabled channel and audience, with recipients for e-mail only', async () => {
      const form = notifying(allOn);
      const { submit, outbox } = await setup([form]);
      const view = await submit.execute(...asCall(publicSubmit(form, { body: { values: { name: 'Ada', email: 'ada@example.org' } } })));
      await settle();
      const jobs = await outbox.listByTenant('acme');
      const summary = jobs.map((job) => [job.channel, job.audience, job.recipients]);
      expect(summary).to.have.deep.members([
        ['email', 'admin', ['ops@acme.test']],
        ['email', 'submitter', ['ada@example.org']],
        ['push', 'admin', []],
        ['push', 'submitter', []],
      ]);
      expect(jobs[0]!.message).to.deep.equal({
        formId: form.id,
        formSlug: 'notify',
        formTitle: form.title,
        submissionId: view.id,
        values: { name: 'Ada', email: 'ada@example.org' },
        submittedBy: null,
        submittedAt: new Date('2026-03-04T05:06:07.890Z'),
      });
      expect(jobs.every((job) => job.status === 'pending' && job.tenantId === 'acme')).to.equal(true);
    });

    it('leaves admin recipients empty when the form names none, and the submitter mail’s too without an address', async () => {
      const form = notifying({ ...allOn, email: { admin: { enabled: true, recipients: [] }, submitter: { enabled: true, field: 'email' } } });
      const { submit, outbox } = await setup([form]);
      await submit.execute(...asCall(publicSubmit(form)));
      await settle();
      const summary = (await outbox.listByTenant('acme')).map((job) => [job.channel, job.audience, job.recipients]);
      expect(summary).to.have.deep.members([
        ['email', 'admin', []],
        ['email', 'submitter', []],
        ['push', 'admin', []],
        ['push', 'submitter', []],
      ]);
    });

    it('stores the submission with a recovery time a minute on, and takes it off once the jobs are stored', async () => {
      const form = notifying(allOn);
      const { submit, submissions } = await setup([form]);
      const view = await submit.execute(...asCall(publicSubmit(form)));
      expect((await submissions.findById('acme', view.id))?.notificationsRecoverAt?.toISOString()).to.equal('2026-03-04T05:07:07.890Z');
      expect(view).not.to.have.property('notificationsRecoverAt');
      await settle();
      expect(await submissions.findById('acme', view.id)).not.to.have.property('notificationsRecoverAt');
      expect(await submissions.claimUnnotified(new Date('2026-03-05T00:00:00.000Z'), 60_000, 10)).to.deep.equal([]);
    });

    it('leaves the recovery time on when the jobs could not be stored, for the dispatcher to find', async () => {
      const form = notifying(allOn);
      const outbox = new MemoryNotificationOutbox();
      sinon.stub(outbox, 'enqueue').rejects(new Error('outbox down'));
      const { submit, submissions } = await setup([form], { outbox });
      const view = await submit.execute(...asCall(publicSubmit(form)));
      await settle();
      const claimed = await submissions.claimUnnotified(new Date('2026-03-04T05:07:07.890Z'), 60_000, 10);
      expect(claimed.map((submission) => submission.id)).to.deep.equal([view.id]);
    });

    it('stores no recovery time when notifications are on but no channel is', async () => {
      const form = notifying({ ...allOn, email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: 'email' } }, push: { admin: { enabled: false }, submitter: { enabled: false } } });
      const { submit, submissions, outbox } = await setup([form]);
      const view = await submit.execute(...asCall(publicSubmit(form)));
      expect(await submissions.findById('acme', view.id)).not.to.have.property('notificationsRecoverAt');
      await settle();
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
    });

    it('drops the jobs it stored when the submission was erased meanwhile', async () => {
      const form = notifying(allOn);
      const outbox = new MemoryNotificationOutbox();
      const { submit, submissions } = await setup([form], { outbox });
      const enqueue = outbox.enqueue.bind(outbox);
      sinon.stub(outbox, 'enqueue').callsFake(async (jobs, now) => {
        await submissions.delete('acme', jobs[0]!.message.submissionId);
        await enqueue(jobs, now);
      });
      await submit.execute(...asCall(publicSubmit(form)));
      await settle();
      await settle();
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
    });

    it('enqueues nothing when notifications are off, whatever the channels say', async () => {
      const form = notifying({ ...allOn, enabled: false });
      const { submit, outbox } = await setup([form]);
      await submit.execute(...asCall(publicSubmit(form, { body: { values: { name: 'Ada', email: 'ada@example.org' } } })));
      await settle();
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
    });

    it('enqueues nothing for a refused submission', async () => {
      const form = notifying(allOn);
      const { submit, outbox } = await setup([form]);
      await submit.execute(...asCall(publicSubmit(form, { body: { values: {} } }))).catch(() => undefined);
      await settle();
      expect(await outbox.listByTenant('acme')).to.deep.equal([]);
    });

    const failures: Array<[string, () => Promise<void>]> = [
      ['rejects', () => Promise.reject(new Error('outbox down'))],
      ['throws synchronously', () => { throw new Error('outbox down'); }],
    ];
    for (const [name, enqueue] of failures) {
      it(`answers the submission and logs when the outbox ${name}`, async () => {
        const form = notifying(allOn);
        const outbox = new MemoryNotificationOutbox();
        sinon.stub(outbox, 'enqueue').callsFake(enqueue);
        const { submit, submissions, logger } = await setup([form], { outbox });
        const view = await submit.execute(...asCall(publicSubmit(form)));
        await settle();
        expect(await submissions.findById('acme', view.id)).not.to.equal(null);
        expect(logger.error.calledOnce).to.equal(true);
        const [message, fields] = logger.error.firstCall.args as [string, Record<string, unknown>];
        expect(message).to.equal('notification enqueue failed');
        expect(fields).to.deep.equal({ tenantId: 'acme', formId: form.id, submissionId: view.id, error: 'outbox down' });
      });
    }

    it('does not wait for a slow outbox', async () => {
      const form = notifying(allOn);
      const outbox = new MemoryNotificationOutbox();
      sinon.stub(outbox, 'enqueue').returns(new Promise(() => {}));
      const { submit } = await setup([form], { outbox });
      const outcome = await Promise.race([submit.execute(...asCall(publicSubmit(form))).then(() => 'answered'), settle().then(() => settle()).then(() => 'waited')]);
      expect(outcome).to.equal('answered');
    });
  });
});
