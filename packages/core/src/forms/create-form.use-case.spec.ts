import { expect } from 'chai';
import { MemoryFormRepository } from '../memory/memory-form.repository.js';
import { ManualClock } from '../shared/clock.js';
import { isDomainError } from '../shared/domain-error.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { newId } from '../shared/ids.js';
import { StaticLanguageCatalog } from '../shared/languages.js';
import { anonymousCaller, userCaller } from '../testing/callers.js';
import type { CreateFormInput } from './create-form-input.js';
import { CreateForm } from './create-form.use-case.js';

const minimal = (overrides: Partial<CreateFormInput> = {}): CreateFormInput => ({
  title: { en: 'Contact' },
  slug: 'contact',
  sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }],
  ...overrides,
});

describe('CreateForm', () => {
  const setup = () => {
    const forms = new MemoryFormRepository();
    const clock = new ManualClock('2026-03-04T05:06:07.890Z');
    const create = new CreateForm(forms, new StaticLanguageCatalog(['en', 'fr']), { defaultProvider: 'turnstile' }, clock);
    return { forms, create };
  };
  const failure = async (promise: Promise<unknown>) => {
    const error = await promise.then(() => undefined, (e: unknown) => e);
    expect(isDomainError(error), `expected a domain error, got ${String(error)}`).to.equal(true);
    return error as { code: string; message: string };
  };

  describe('when the body is minimal', () => {
    it('applies every default and stores the form', async () => {
      const { forms, create } = setup();
      const form = await create.execute(anonymousCaller('acme'), minimal());
      expect(form.id).to.match(/^[a-f0-9]{24}$/);
      expect(form).to.deep.equal({
        id: form.id,
        tenantId: 'acme',
        slug: 'contact',
        title: { en: 'Contact' },
        description: {},
        submitButtonText: {},
        isActive: true,
        visibility: 'public',
        sections: [
          { title: {}, description: {}, fields: [{ name: 'name', type: 'text', label: { en: 'Name' }, required: false, placeholder: {} }] },
        ],
        captcha: { enabled: false, provider: 'turnstile', minScore: 0.5 },
        notifications: {
          enabled: false,
          email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: null } },
          push: { admin: { enabled: false }, submitter: { enabled: false } },
        },
        flow: { nextFormId: null, previousFormId: null },
        createdBy: null,
        createdAt: new Date('2026-03-04T05:06:07.890Z'),
        updatedAt: new Date('2026-03-04T05:06:07.890Z'),
      });
      expect(await forms.findById('acme', form.id)).to.deep.equal(form);
    });

    it('treats JSON null optional properties as absent', async () => {
      const { create } = setup();
      const form = await create.execute(
        anonymousCaller('acme'),
        minimal({
          description: null,
          isActive: null,
          visibility: null,
          captcha: null,
          notifications: null,
          flow: { nextFormId: null },
          sections: [{ title: null, fields: [{ name: 'n', type: 'text', label: { en: 'N' }, required: null, placeholder: null, options: null, relation: null }] }],
        }),
      );
      expect(form.isActive).to.equal(true);
      expect(form.description).to.deep.equal({});
      expect(form.sections[0]!.fields[0]).to.deep.equal({ name: 'n', type: 'text', label: { en: 'N' }, required: false, placeholder: {} });
      expect(form.flow).to.deep.equal({ nextFormId: null, previousFormId: null });
    });

    it('records the user as createdBy when one is known', async () => {
      const { create } = setup();
      expect((await create.execute(userCaller('acme', 'editor-1'), minimal())).createdBy).to.equal('editor-1');
    });
  });

  describe('when the body sets the optional groups', () => {
    it('keeps what is given and fills the rest', async () => {
      const { create } = setup();
      const form = await create.execute(
        anonymousCaller('acme'),
        minimal({
          isActive: false,
          visibility: 'internal',
          captcha: { enabled: true, minScore: 0.8 },
          notifications: { enabled: true, email: { admin: { enabled: true, recipients: ['ops@acme.test'] } }, push: { submitter: { enabled: true } } },
          sections: [
            {
              fields: [
                { name: 'work', type: 'email', label: { en: 'Work' } },
                { name: 'home', type: 'email', label: { en: 'Home' } },
              ],
            },
          ],
        }),
      );
      expect(form.isActive).to.equal(false);
      expect(form.visibility).to.equal('internal');
      expect(form.captcha).to.deep.equal({ enabled: true, provider: 'turnstile', minScore: 0.8 });
      expect(form.notifications).to.deep.equal({
        enabled: true,
        email: { admin: { enabled: true, recipients: ['ops@acme.test'] }, submitter: { enabled: false, field: 'work' } },
        push: { admin: { enabled: false }, submitter: { enabled: true } },
      });
    });

    it('keeps a named submitter e-mail field', async () => {
      const { create } = setup();
      const form = await create.execute(
        anonymousCaller('acme'),
        minimal({
          notifications: { email: { submitter: { enabled: true, field: 'home' } } },
          sections: [{ fields: [{ name: 'work', type: 'email', label: { en: 'W' } }, { name: 'home', type: 'email', label: { en: 'H' } }] }],
        }),
      );
      expect(form.notifications.email.submitter).to.deep.equal({ enabled: true, field: 'home' });
    });

    it('defaults relation.multiple to false and stores select options', async () => {
      const { create } = setup();
      const target = await create.execute(anonymousCaller('acme'), minimal({ slug: 'company' }));
      const form = await create.execute(
        anonymousCaller('acme'),
        minimal({
          sections: [
            {
              fields: [
                { name: 'company', type: 'relation', label: { en: 'Company' }, relation: { formId: target.id.toUpperCase() } },
                { name: 'plan', type: 'select', label: { en: 'Plan' }, options: [{ value: 'pro', label: { en: 'Pro', fr: 'Pro' } }] },
              ],
            },
          ],
          flow: { previousFormId: target.id },
        }),
      );
      const [company, plan] = form.sections[0]!.fields;
      expect(company!.relation).to.deep.equal({ formId: target.id, multiple: false });
      expect(company).not.to.have.property('options');
      expect(plan!.options).to.deep.equal([{ value: 'pro', label: { en: 'Pro', fr: 'Pro' } }]);
      expect(plan).not.to.have.property('relation');
      expect(form.flow).to.deep.equal({ nextFormId: null, previousFormId: target.id });
    });
  });

  describe('when the slug is taken', () => {
    it('answers FORM_SLUG_TAKEN in the same tenant only', async () => {
      const { create } = setup();
      await create.execute(anonymousCaller('acme'), minimal());
      const error = await failure(create.execute(anonymousCaller('acme'), minimal()));
      expect(error.code).to.equal(ErrorCodes.FORM_SLUG_TAKEN);
      expect(error.message).to.equal('Form slug already exists');
      expect((await create.execute(anonymousCaller('other'), minimal())).slug).to.equal('contact');
    });

    it('lets exactly one of six racing creates win', async () => {
      const { create } = setup();
      const results = await Promise.allSettled(Array.from({ length: 6 }, () => create.execute(anonymousCaller('acme'), minimal())));
      expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      const codes = results.flatMap((r) => (r.status === 'rejected' ? [(r.reason as { code: string }).code] : []));
      expect(codes).to.deep.equal(Array(5).fill(ErrorCodes.FORM_SLUG_TAKEN));
    });
  });

  describe('when a rule of the body is broken', () => {
    const twoFields = (a: object, b: object = { name: 'other', type: 'text', label: { en: 'O' } }) =>
      minimal({ sections: [{ fields: [a as never, b as never] }] });
    const cases: Array<[string, CreateFormInput, string]> = [
      ['a title in an unconfigured language', minimal({ title: { en: 'x', de: 'y' } }), 'title.de is not a configured language (en, fr)'],
      ['a blank title', minimal({ title: { en: '   ' } }), 'title.en must not be blank'],
      ['a description in an unconfigured language', minimal({ description: { es: 'x' } }), 'description.es is not a configured language (en, fr)'],
      ['a submit text in an unconfigured language', minimal({ submitButtonText: { it: 'Invia' } }), 'submitButtonText.it is not a configured language'],
      ['a section title language', minimal({ sections: [{ title: { xx: 'x' }, fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] }), 'sections[0].title.xx is not a configured language'],
      ['a field label language', twoFields({ name: 'a', type: 'text', label: { de: 'A' } }), 'sections[0].fields[0].label.de is not a configured language'],
      ['a placeholder language', twoFields({ name: 'a', type: 'text', label: { en: 'A' }, placeholder: { de: 'p' } }), 'sections[0].fields[0].placeholder.de is not a configured language'],
      ['an option label language', twoFields({ name: 'a', type: 'select', label: { en: 'A' }, options: [{ value: 'v', label: { de: 'V' } }] }), 'sections[0].fields[0].options[0].label.de is not a configured language'],
      ['a field name used twice in one section', twoFields({ name: 'a', type: 'text', label: { en: 'A' } }, { name: 'a', type: 'email', label: { en: 'B' } }), 'sections[0].fields[1].name duplicates the field name "a"'],
      [
        'a field name used again in another section',
        minimal({ sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }, { fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] }),
        'sections[1].fields[0].name duplicates the field name "a" (first declared at sections[0].fields[0])',
      ],
      ['a select without options', twoFields({ name: 'a', type: 'select', label: { en: 'A' } }), 'sections[0].fields[0].options is required for a select field'],
      ['options on a text field', twoFields({ name: 'a', type: 'text', label: { en: 'A' }, options: [{ value: 'v', label: { en: 'V' } }] }), 'sections[0].fields[0].options is only allowed on a select field'],
      ['two options with one value', twoFields({ name: 'a', type: 'select', label: { en: 'A' }, options: [{ value: 'v', label: { en: 'V' } }, { value: 'v', label: { en: 'W' } }] }), 'sections[0].fields[0].options[1].value duplicates the option value "v"'],
      ['a relation field without relation', twoFields({ name: 'a', type: 'relation', label: { en: 'A' } }), 'sections[0].fields[0].relation is required for a relation field'],
      ['relation on a text field', twoFields({ name: 'a', type: 'text', label: { en: 'A' }, relation: { formId: 'a'.repeat(24) } }), 'sections[0].fields[0].relation is only allowed on a relation field'],
      [
        'a submitter field that is not an email field',
        minimal({ notifications: { email: { submitter: { field: 'name' } } } }),
        'notifications.email.submitter.field does not name an email field of this form ("name")',
      ],
      ['a relation to a form that does not exist', twoFields({ name: 'a', type: 'relation', label: { en: 'A' }, relation: { formId: newId() } }), 'sections[0].fields[0].relation.formId does not name a form of this tenant'],
      ['a next form that does not exist', minimal({ flow: { nextFormId: newId() } }), 'flow.nextFormId does not name a form of this tenant'],
      ['a previous form that does not exist', minimal({ flow: { previousFormId: newId() } }), 'flow.previousFormId does not name a form of this tenant'],
      ['a malformed next form id', minimal({ flow: { nextFormId: 'nope' } }), 'flow.nextFormId must be an id of 24 hexadecimal characters'],
    ];
    for (const [name, input, message] of cases) {
      it(`answers VALIDATION_FAILED for ${name} and stores nothing`, async () => {
        const { create } = setup();
        const error = await failure(create.execute(anonymousCaller('acme'), input));
        expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
        expect(error.message).to.contain(message);
        // The slug stays free: nothing was stored.
        expect((await create.execute(anonymousCaller('acme'), minimal({ slug: input.slug }))).slug).to.equal(input.slug);
      });
    }

    it('treats another tenant’s form as missing for relations and flow', async () => {
      const { create } = setup();
      const foreign = await create.execute(anonymousCaller('other'), minimal({ slug: 'theirs' }));
      const error = await failure(create.execute(anonymousCaller('acme'), minimal({ flow: { nextFormId: foreign.id } })));
      expect(error.message).to.equal('flow.nextFormId does not name a form of this tenant');
    });
  });
});
