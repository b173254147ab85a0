import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { ManualClock } from '../shared/clock.js';
import { isDomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { anonymousCaller } from '../testing/callers.js';
import { CreateForm } from './create-form.use-case.js';
import { UpdateForm } from './update-form.use-case.js';

describe('UpdateForm', () => {
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
    const failure = async (promise: Promise<unknown>) => {
      const error = await promise.then(() => undefined, (e: unknown) => e);
      expect(isDomainError(error), `expected a domain error, got ${String(error)}`).to.equal(true);
      return error as { code: string; message: string };
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
