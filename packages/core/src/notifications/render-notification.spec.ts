import { expect } from 'chai';
import { sampleNotificationJob } from '../testing/notification-records.js';
import type { NotificationJob } from './notification.ports.js';
import { formTitleOf, renderNotificationEmail, renderNotificationPush } from './render-notification.js';

const job = (overrides: Partial<NotificationJob> = {}): NotificationJob => ({
  ...sampleNotificationJob(),
  id: 'cccccccccccccccccccccccc',
  status: 'pending',
  attempts: 2,
  nextAttemptAt: new Date('2026-03-01T10:00:00.000Z'),
  claimedUntil: null,
  lastError: null,
  createdAt: new Date('2026-03-01T10:00:00.000Z'),
  updatedAt: new Date('2026-03-01T10:00:00.000Z'),
  ...overrides,
});

describe('renderNotificationEmail', () => {
  describe('when the audience is the admins', () => {
    it('titles the mail with the form title in its first language and lists every value', () => {
      const mail = renderNotificationEmail(job(), ['ops@acme.test']);
      expect(mail.to).to.deep.equal(['ops@acme.test']);
      expect(mail.subject).to.equal('New submission: Contact us');
      expect(mail.text).to.equal(
        [
          'A new submission was received for the form "Contact us" (contact).',
          '',
          'Submission: bbbbbbbbbbbbbbbbbbbbbbbb',
          'Submitted at: 2026-03-01T09:59:59.123Z',
          'Submitted by: guest',
          '',
          'name: Ada',
          'email: ada@example.test',
          'topics: a, b',
          '',
        ].join('\n'),
      );
    });
  });

  describe('when the audience is the submitter', () => {
    it('thanks them and leaves out who submitted', () => {
      const base = sampleNotificationJob();
      const mail = renderNotificationEmail(job({ audience: 'submitter', message: { ...base.message, submittedBy: 'u-42' } }), ['ada@example.test']);
      expect(mail.subject).to.equal('We received your submission: Contact us');
      expect(mail.text).to.match(/^Thank you\. We received your submission to "Contact us"\./);
      expect(mail.text).not.to.contain('u-42');
    });
  });

  describe('when the title or values are awkward', () => {
    it('keeps the subject on one bounded line and indents multi-line answers', () => {
      const base = sampleNotificationJob();
      const title = `Evil\r\nBcc: victim@example.test ${'x'.repeat(300)}`;
      const mail = renderNotificationEmail(
        job({ message: { ...base.message, formTitle: { ar: title }, values: { note: 'line 1\nline 2', n: 3, ok: true, nested: { a: 1 }, none: null } } }),
        ['ops@acme.test'],
      );
      expect(mail.subject).not.to.match(/[\r\n]/);
      expect(mail.subject).to.match(/^New submission: Evil Bcc: victim@example\.test x+…$/);
      expect(mail.subject).to.have.length(200);
      expect(mail.text).to.contain('note: line 1\n  line 2\nn: 3\nok: true\nnested: {"a":1}\nnone: \n');
    });

    it('lets no title or answer forge a line of the mail, with any of Unicode’s line breaks', () => {
      const base = sampleNotificationJob();
      const forged = ['\u2028', '\u2029', '\u0085', '\v', '\f', '\r', '\r\n'].map((br) => `x${br}Submitted by: ceo-1`);
      const mail = renderNotificationEmail(
        job({ message: { ...base.message, formTitle: { en: 'Hi\r\nBcc: victim@evil.test' }, values: Object.fromEntries(forged.map((text, i) => [`f${i}`, text])) } }),
        ['ops@acme.test'],
      );
      const lines = mail.text.split(/\r\n|[\n\v\f\r\u0085\u2028\u2029]/);
      expect(lines.filter((line) => line.startsWith('Submitted by:'))).to.deep.equal(['Submitted by: guest']);
      expect(lines.filter((line) => line.startsWith('Bcc:'))).to.deep.equal([]);
      expect(lines[0]).to.equal('A new submission was received for the form "Hi Bcc: victim@evil.test" (contact).');
    });

    it('keeps C1 and bidirectional controls out of the subject, and never cuts it inside a surrogate pair', () => {
      const base = sampleNotificationJob();
      const controlled = renderNotificationEmail(job({ message: { ...base.message, formTitle: { en: 'Pay\u0085\u202eNOW\u2066' } } }), ['ops@acme.test']);
      expect(controlled.subject).to.equal('New submission: Pay NOW');
      for (const pad of ['AB', 'ABC']) {
        const title = pad + '\u{1F600}'.repeat(150);
        const mail = renderNotificationEmail(job({ message: { ...base.message, formTitle: { en: title } } }), ['ops@acme.test']);
        const push = renderNotificationPush(job({ message: { ...base.message, formTitle: { en: title } } }));
        for (const text of [mail.subject, push.title as string]) {
          expect((text as unknown as { isWellFormed(): boolean }).isWellFormed(), pad).to.equal(true);
          expect(text.endsWith('…')).to.equal(true);
        }
      }
    });
  });
});

describe('formTitleOf', () => {
  it('falls back to the slug when no title is written', () => {
    const base = sampleNotificationJob().message;
    expect(formTitleOf({ ...base, formTitle: {} })).to.equal('contact');
    expect(formTitleOf({ ...base, formTitle: { fr: 'Contact', en: 'Contact us' } })).to.equal('Contact');
  });
});

describe('renderNotificationPush', () => {
  it('carries the job id, the form and the submission as JSON-ready values', () => {
    const payload = renderNotificationPush(job());
    expect(JSON.parse(JSON.stringify(payload))).to.deep.equal({
      id: 'cccccccccccccccccccccccc',
      event: 'form.submission',
      tenantId: 'acme',
      audience: 'admin',
      attempt: 2,
      title: 'Contact us',
      form: { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', slug: 'contact', title: { en: 'Contact us', fr: 'Contactez-nous' } },
      submission: {
        id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
        submittedBy: null,
        submittedAt: '2026-03-01T09:59:59.123Z',
        values: { name: 'Ada', email: 'ada@example.test', topics: ['a', 'b'] },
      },
    });
  });
});
