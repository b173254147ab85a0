/** Issue 22 item 1: the form rules core enforces on its own, with no HTTP schema in front. */
import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { ManualClock } from '../shared/clock.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { anonymousCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import { CreateForm } from './create-form.use-case.js';

const field = { name: 'name', type: 'text', label: { en: 'Name' } };
const valid = { title: { en: 'Contact' }, slug: 'contact', sections: [{ fields: [field] }] };

describe('CreateForm enforces the rules of a form itself', () => {
  const setup = () => {
    const forms = new MemoryFormRepository();
    const create = new CreateForm(forms, new StaticLanguageCatalog(['en', 'fr']), { defaultProvider: 'turnstile' }, new ManualClock('2026-03-04T05:06:07.890Z'));
    return { forms, create };
  };

  const cases: Array<[string, Record<string, unknown>, string, string]> = [
    ['a slug that is not one', { ...valid, slug: 'NOT A SLUG !!' }, 'slug', 'may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
    ['an unknown visibility', { ...valid, visibility: 'bogus' }, 'visibility', 'must be one of public, internal'],
    ['an unknown field type', { ...valid, sections: [{ fields: [{ ...field, type: 'nonsense' }] }] }, 'sections[0].fields[0].type', 'must be one of text, email, textarea, number, phone, url, date, select, checkbox, relation'],
    ['a 100,000-character label', { ...valid, sections: [{ fields: [{ ...field, label: { en: 'x'.repeat(100_000) } }] }] }, 'sections[0].fields[0].label.en', 'must be at most 500 characters'],
    ['no sections', { ...valid, sections: [] }, 'sections', 'must have at least 1 item'],
    ['a missing sections', { title: valid.title, slug: valid.slug }, 'sections', 'must be a list'],
    ['a minScore of 42', { ...valid, captcha: { enabled: true, minScore: 42 } }, 'captcha.minScore', 'must be from 0 to 1'],
    ['a title that is a number', { ...valid, title: 42 }, 'title', 'must be an object'],
    ['a field name that is not one', { ...valid, sections: [{ fields: [{ ...field, name: 'first name' }] }] }, 'sections[0].fields[0].name', 'must start with a letter and contain only letters, digits and underscores (at most 64 characters)'],
    ['an unknown property', { ...valid, colour: 'red' }, 'colour', 'is not allowed'],
    ['an input that is not an object', [] as unknown as Record<string, unknown>, '', 'must be an object'],
  ];
  for (const [name, input, path, message] of cases) {
    it(`refuses ${name} with VALIDATION_FAILED at ${path || 'the input'}, storing nothing`, async () => {
      const { forms, create } = setup();
      const error = await domainErrorOf(create.execute(anonymousCaller('acme'), input as never));
      expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
      expect(error.issues[0]).to.deep.equal({ path, message });
      expect(await forms.findBySlug('acme', 'contact')).to.equal(null);
    });
  }

  it('counts characters as a reader does: 500 emoji are a 500-character label', async () => {
    const { create } = setup();
    const form = await create.execute(anonymousCaller('acme'), { ...valid, sections: [{ fields: [{ ...field, label: { en: '😀'.repeat(500) } }] }] } as never);
    expect(form.sections[0]!.fields[0]!.label.en).to.have.length(1000);
  });

  it('refuses a tenant id that is not one', async () => {
    const error = await domainErrorOf(setup().create.execute(anonymousCaller('no-such-tenant!!'), valid as never));
    expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
    expect(error.issues[0]?.path).to.equal('tenantId');
  });
});
