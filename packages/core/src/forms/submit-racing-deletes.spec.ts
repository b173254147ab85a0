/**
 * A submission racing the delete of its form, or its own erasure (§6.4): whichever way they
 * interleave, once both have finished no submission of a deleted form is left, and no
 * notification job of a deleted or erased submission is waiting to be sent (its message carries
 * the submission's values: decision 0763). The interleavings are forced by holding one side's
 * store call until the other side has finished.
 */
import { expect } from 'chai';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { MemoryNotificationOutbox } from '../memory/memory-notification-outbox.js';
import { MemorySubmissionRepository } from '../memory/memory-submission.repository.js';
import { systemClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { silentLogger } from '../shared/logger.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { holdNext, signal, whileHeld } from '../testing/held-calls.js';
import { formRecord } from '../testing/form-fixtures.js';
import { DeleteForm } from './delete-form.use-case.js';
import { DeleteSubmission } from './delete-submission.use-case.js';
import { SubmitForm } from './submit-form.use-case.js';

const editor = userCaller('acme', 'e1', 'editor');
const visitor = anonymousCaller('acme');

/** Lets fire-and-forget work (the notification enqueue) run to its end. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

const setup = async () => {
  const forms = new MemoryFormRepository();
  const submissions = new MemorySubmissionRepository();
  const outbox = new MemoryNotificationOutbox();
  const notifications = {
    enabled: true,
    email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: null } },
    push: { admin: { enabled: true }, submitter: { enabled: false } },
  };
  const form = formRecord('acme', 'signup', { notifications });
  await forms.insert(form);
  const submit = new SubmitForm(forms, submissions, new StaticCaptchaVerifier(), outbox, systemClock, silentLogger);
  const send = () => submit.execute(visitor, { formId: form.id, submission: { values: { name: 'Ada' } }, mode: 'public' });
  const stored = async () => (await submissions.listByForm('acme', form.id, { after: null, limit: 100, order: 'oldestFirst' })).length;
  const waiting = async () => (await outbox.listByTenant('acme')).filter((job) => job.status === 'pending').length;
  return { forms, submissions, outbox, form, send, stored, waiting, deleteForm: new DeleteForm(forms, submissions, outbox, systemClock), erase: new DeleteSubmission(forms, submissions, outbox) };
};

describe('A submission racing the delete of its form or its own erasure', () => {
  describe('when the form is deleted between the submission’s form check and its write', () => {
    it('answers FORM_NOT_FOUND and leaves no submission and no job', async () => {
      const { submissions, form, send, stored, waiting, deleteForm } = await setup();
      const release = signal();
      const arrived = holdNext(submissions, 'insert', release.promise);
      const submitting = domainErrorOf(send());
      await arrived;
      await deleteForm.execute(editor, { id: form.id });
      release.fire();
      expect((await submitting).code).to.equal(ErrorCodes.FORM_NOT_FOUND);
      await settle();
      expect(await stored()).to.equal(0);
      expect(await waiting()).to.equal(0);
    });
  });

  describe('when the submission lands while the form’s delete is removing the form', () => {
    it('answers the submission, and the delete still leaves no submission and no job', async () => {
      const { forms, form, send, stored, waiting, deleteForm } = await setup();
      const release = signal();
      const arrived = holdNext(forms, 'delete', release.promise);
      const deleting = deleteForm.execute(editor, { id: form.id });
      await arrived; // closed, jobs dropped, submissions deleted; the form itself not yet
      await send().catch(() => undefined); // closed: refused, or (had its check passed first) stored
      release.fire();
      await deleting;
      await settle();
      expect(await stored()).to.equal(0);
      expect(await waiting()).to.equal(0);
    });
  });

  describe('when a submission checked its form before the delete closed it, and lands before the form goes', () => {
    it('answers the submission, and the delete’s last pass takes it and its jobs', async () => {
      const { forms, submissions, form, send, stored, waiting, deleteForm } = await setup();
      const release = signal();
      const inserting = holdNext(submissions, 'insert', release.promise);
      const submitting = send();
      await inserting; // its form check passed: the form was still open
      await whileHeld(forms, 'delete', () => deleteForm.execute(editor, { id: form.id }), async () => {
        release.fire(); // lands after the delete's pages, while the form (closed) is still there
        expect((await submitting).formId).to.equal(form.id);
        expect(await stored()).to.equal(1);
      });
      await settle();
      expect(await stored()).to.equal(0);
      expect(await waiting()).to.equal(0);
    });
  });

  describe('when a submission’s jobs are enqueued after its erasure', () => {
    it('leaves none of them waiting', async () => {
      const { outbox, send, waiting, erase } = await setup();
      const release = signal();
      const arrived = holdNext(outbox, 'enqueue', release.promise);
      const submission = await send();
      await arrived;
      await erase.execute(editor, { id: submission.id });
      release.fire();
      await settle();
      expect(await waiting()).to.equal(0);
    });
  });

  describe('when a submission’s jobs are enqueued while its erasure is deleting it', () => {
    it('leaves none of them waiting: the erasure drops its jobs again after the delete', async () => {
      const { submissions, outbox, send, waiting, erase } = await setup();
      const release = signal();
      const arrived = holdNext(outbox, 'enqueue', release.promise);
      const submission = await send();
      await arrived;
      await whileHeld(submissions, 'delete', () => erase.execute(editor, { id: submission.id }), async () => {
        release.fire(); // the jobs land after the erasure's first drop, while the submission is still there
        await settle();
        expect(await waiting()).to.be.above(0);
      });
      await settle();
      expect(await waiting()).to.equal(0);
    });
  });

  describe('when a submission’s jobs are enqueued after its form’s delete', () => {
    it('leaves none of them waiting', async () => {
      const { form, outbox, send, waiting, deleteForm } = await setup();
      const release = signal();
      const arrived = holdNext(outbox, 'enqueue', release.promise);
      await send();
      await arrived;
      await deleteForm.execute(editor, { id: form.id });
      release.fire();
      await settle();
      expect(await waiting()).to.equal(0);
    });
  });
});
