import { expect } from 'chai';
import { formRecord, submissionRecord } from '../testing/form-fixtures.js';
import { submissionNotificationJobs } from './submission-notification-jobs.js';

describe('submissionNotificationJobs', () => {
  describe('when the submitter field is named after an Object.prototype member', () => {
    const base = formRecord('acme', 'contact');
    const form = {
      ...base,
      notifications: { ...base.notifications, enabled: true, email: { ...base.notifications.email, submitter: { enabled: true, field: 'constructor' } } },
    };
    const submitterJobs = (values: Record<string, unknown>) =>
      submissionNotificationJobs(form, submissionRecord('acme', form.id, { values })).filter((job) => job.audience === 'submitter' && job.channel === 'email');

    it('reads the submission’s own answer only: left empty, a submitter mail to no one (skipped when sent); answered, one to that address', () => {
      expect(submitterJobs({ name: 'Ada' }).map((job) => job.recipients)).to.deep.equal([[]]);
      expect(submitterJobs({ name: 'Ada', constructor: 'ada@example.org' }).map((job) => job.recipients)).to.deep.equal([['ada@example.org']]);
    });

    it('mails no address that is not one plain address: a value stored while the field was text, recovered after it became an e-mail field', () => {
      for (const value of ['a@victim1.test, b@victim2.test', 'Boss <x@y.test>', 'x;postmaster@b.test', 'not an address', `${'a'.repeat(250)}@b.test`]) {
        expect(submitterJobs({ constructor: value }).map((job) => job.recipients), value).to.deep.equal([[]]);
      }
    });
  });
});
