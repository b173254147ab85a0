import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { ManualClock } from '../shared/clock.js';
import { isDomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { anonymousCaller } from '../testing/callers.js';
import { CreateForm } from './create-form.use-case.js';
import { FORM_LIMITS, RELATION_HISTORY_MAX } from './form.js';
import { UpdateForm } from './update-form.use-case.js';

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(isDomainError(error), `expected a domain error, got ${String(error)}`).to.equal(true);
  return error as { code: string; message: string };
};

describe('UpdateForm', () => {
  describe('when new sections drop the e-mail field the stored notifications name as the submitter’s', () => {
    const email = (name: string) => ({ name, type: 'email' as const, label: { en: name } });
    const setup = async (submitterEnabled: boolean) => {
      const forms = new MemoryFormRepository();
      const clock = new ManualClock('2026-03-04T05:06:07.890Z');
      const languages = new StaticLanguageCatalog(['en']);
      const captcha = { defaultProvider: 'turnstile' } as const;
      const form = await new CreateForm(forms, languages, captcha, clock).execute(anonymousCaller('acme'), {
        title: { en: 'Contact' },
        slug: 'contact',
        sections: [{ fields: [email('email')] }],
        notifications: { enabled: submitterEnabled, email: { submitter: { enabled: submitterEnabled } } },
      });
      expect(form.notifications.email.submitter.field).to.equal('email'); // create's default: the first e-mail field
      clock.advance(1000);
      return { form, update: new UpdateForm(forms, languages, captcha, clock) };
    };

    it('takes the default again while submitter e-mail is off: the first e-mail field left, or none', async () => {
      const { form, update } = await setup(false);
      const moved = await update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections: [{ fields: [email('work')] }] } });
      expect(moved.notifications.email.submitter.field).to.equal('work');
      const none = await update.execute(anonymousCaller('acme'), {
        id: form.id,
        changes: { sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }] },
      });
      expect(none.notifications.email.submitter).to.deep.equal({ enabled: false, field: null });
    });

    it('refuses, naming the sections, while submitter e-mail is on; the same change with notifications passes', async () => {
      const { form, update } = await setup(true);
      const sections = [{ fields: [email('work')] }];
      const error = await failure(update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections } }));
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(error.message).to.equal('sections no longer have the email field "email" that notifications.email.submitter.field names');
      const named = { enabled: true, email: { submitter: { enabled: true, field: 'email' } } };
      const stale = await failure(update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections, notifications: named } }));
      expect(stale.message).to.equal('notifications.email.submitter.field does not name an email field of this form ("email")');
      const notifications = { enabled: true, email: { submitter: { enabled: true, field: 'work' } } };
      const updated = await update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections, notifications } });
      expect(updated.notifications.email.submitter).to.deep.equal({ enabled: true, field: 'work' });
    });
  });

  describe('when renaming relation fields would make the form one that has had more than RELATION_HISTORY_MAX', () => {
    it('refuses the update naming the sections, stores nothing, and leaves updates that add no relation field alone', async () => {
      const forms = new MemoryFormRepository();
      const clock = new ManualClock('2026-03-04T05:06:07.890Z');
      const languages = new StaticLanguageCatalog(['en']);
      const captcha = { defaultProvider: 'turnstile' } as const;
      const create = new CreateForm(forms, languages, captcha, clock);
      const target = await create.execute(anonymousCaller('acme'), { title: { en: 'Companies' }, slug: 'companies', sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }] });
      const sections = (prefix: string) =>
        Array.from({ length: FORM_LIMITS.sectionsMax }, (_, s) => ({
          fields: Array.from({ length: FORM_LIMITS.fieldsMax }, (_, i) => ({ name: `${prefix}${s}_${i}`, type: 'relation' as const, label: { en: 'Link' }, relation: { formId: target.id } })),
        }));
      const form = await create.execute(anonymousCaller('acme'), { title: { en: 'Deals' }, slug: 'deals', sections: sections('a') });
      const update = new UpdateForm(forms, languages, captcha, clock);
      clock.advance(1000);
      await update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections: sections('b') } });
      clock.advance(1000);
      const error = await failure(update.execute(anonymousCaller('acme'), { id: form.id, changes: { sections: sections('c') } }));
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(error.message).to.equal(
        `sections would make this form one that has had more than ${RELATION_HISTORY_MAX} relation fields (renamed and removed ones count until the form is deleted): create a new form`,
      );
      expect((await forms.findById('acme', form.id))!.sections[0]!.fields[0]!.name).to.equal('b0_0');
      const retitled = await update.execute(anonymousCaller('acme'), { id: form.id, changes: { title: { en: 'Deals, renamed' } } });
      expect(retitled.title).to.deep.equal({ en: 'Deals, renamed' });
    });
  });

  describe('when a language the form has texts in was taken out of the configuration since', () => {
    const setup = async () => {
      const forms = new MemoryFormRepository();
      const clock = new ManualClock('2026-03-04T05:06:07.890Z');
      const captcha = { defaultProvider: 'turnstile' } as const;
      const form = await new CreateForm(forms, new StaticLanguageCatalog(['en', 'fr']), captcha, clock).execute(anonymousCaller('acme'), {
        title: { en: 'Contact', fr: 'Contact' },
        slug: 'contact',
        sections: [{ fields: [{ name: 'topic', type: 'select', label: { en: 'Topic' }, options: [{ value: 'a', label: { fr: 'Un' } }] }] }],
      });
      clock.advance(1000);
      return { form, update: new UpdateForm(forms, new StaticLanguageCatalog(['en']), captcha, clock) };
    };
    it('keeps those texts through an update of something else, or the same texts sent back', async () => {
      const { form, update } = await setup();
      const deactivated = await update.execute(anonymousCaller('acme'), { id: form.id, changes: { isActive: false } });
      expect(deactivated).to.deep.include({ isActive: false, title: form.title, sections: form.sections });
      const resent = await update.execute(anonymousCaller('acme'), { id: form.id, changes: { title: form.title, sections: form.sections } });
      expect(resent).to.deep.include({ title: form.title, sections: form.sections });
    });

    it('still refuses a language that is neither configured nor in the form', async () => {
      const { form, update } = await setup();
      const error = await failure(update.execute(anonymousCaller('acme'), { id: form.id, changes: { description: { de: 'Neu' } } }));
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(error.message).to.equal('description.de is not a configured language (en)');
    });
  });
});
