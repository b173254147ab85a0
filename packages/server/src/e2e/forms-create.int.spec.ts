/** §2.3 over HTTP: POST /forms/create and GET /forms/getById/{id}. */
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, formBody, HEX_ID, ISO_MS } from './form-requests.js';

const FORM_KEYS = [
  'id', 'tenantId', 'slug', 'title', 'description', 'submitButtonText', 'isActive', 'visibility',
  'sections', 'captcha', 'notifications', 'flow', 'createdBy', 'createdAt', 'updatedAt',
];

for (const storage of TEST_STORAGES) {
  describe(`POST /forms/create (storage: ${storage})`, () => {
    let api: TestService;
    let slugs = 0;
    const slug = () => `form-${++slugs}`;
    before(async () => {
      api = await startTestService({}, { storage });
    });
    after(() => api.stop());
    const create = (body: unknown, options: { headers?: Record<string, string>; key?: string | null } = {}) =>
      api.call('POST', '/forms/create', { ...options, body });

    describe('when the body is minimal', () => {
      it('answers 201 with the stored form, every default applied', async () => {
        const res = await create({ title: { en: 'Contact' }, slug: 'contact-minimal', sections: [{ fields: [{ name: 'name', type: 'text', label: { en: 'Name' } }] }] });
        expect(res.status).to.equal(201);
        expect(res.body).to.include({ success: true, statusCode: 201, message: 'Form created successfully' });
        const form = res.body.data.form;
        expect(Object.keys(form)).to.have.members(FORM_KEYS);
        expect(form.id).to.match(HEX_ID);
        expect(form).to.deep.include({
          tenantId: 'tenant-a',
          slug: 'contact-minimal',
          title: { en: 'Contact' },
          description: {},
          submitButtonText: {},
          isActive: true,
          visibility: 'public',
          sections: [{ title: {}, description: {}, fields: [{ name: 'name', type: 'text', label: { en: 'Name' }, required: false, placeholder: {} }] }],
          captcha: { enabled: false, provider: 'recaptcha', minScore: 0.5 },
          notifications: {
            enabled: false,
            email: { admin: { enabled: false, recipients: [] }, submitter: { enabled: false, field: null } },
            push: { admin: { enabled: false }, submitter: { enabled: false } },
          },
          flow: { nextFormId: null, previousFormId: null },
          createdBy: null,
        });
        expect(form.createdAt).to.match(ISO_MS);
        expect(form.updatedAt).to.equal(form.createdAt);
      });

      it('stores what it returns: GET /forms/getById answers the same form', async () => {
        const created = await createForm(api, slug());
        const res = await api.call('GET', `/forms/getById/${created.id}`);
        expect(res.status).to.equal(200);
        expect(res.body.message).to.equal('Form retrieved successfully');
        expect(res.body.data.form).to.deep.equal(created);
      });

      it('treats JSON null optional properties as absent', async () => {
        const form = await createForm(api, slug(), {
          description: null,
          submitButtonText: null,
          isActive: null,
          visibility: null,
          captcha: { enabled: null, provider: null, minScore: null },
          notifications: null,
          flow: { nextFormId: null, previousFormId: null },
          sections: [{ title: null, description: null, fields: [{ name: 'n', type: 'text', label: { en: 'N' }, required: null, placeholder: null, options: null, relation: null }] }],
        });
        expect(form.isActive).to.equal(true);
        expect(form.visibility).to.equal('public');
        expect(form.captcha).to.deep.equal({ enabled: false, provider: 'recaptcha', minScore: 0.5 });
        expect(form.sections[0].fields[0]).to.deep.equal({ name: 'n', type: 'text', label: { en: 'N' }, required: false, placeholder: {} });
      });
    });

    describe('when a user is known', () => {
      it('records the x-user-id as createdBy', async () => {
        const form = await createForm(api, slug(), {}, { headers: { 'x-user-id': 'editor-9' } });
        expect(form.createdBy).to.equal('editor-9');
      });

      it('records the bearer token’s sub as createdBy, whatever the role', async () => {
        const token = await api.token({ sub: 'member-3', role: 'member' });
        const form = await createForm(api, slug(), {}, { headers: { authorization: `Bearer ${token}` } });
        expect(form.createdBy).to.equal('member-3');
      });
    });

    describe('when the body sets every group', () => {
      it('keeps what is given', async () => {
        const target = await createForm(api, slug());
        const previous = await createForm(api, slug());
        const body = formBody(slug(), {
          title: { en: 'Sign-up', fr: 'Inscription' },
          description: { en: 'Join us' },
          submitButtonText: { ar: 'إرسال' },
          isActive: false,
          visibility: 'internal',
          captcha: { enabled: true, provider: 'turnstile', minScore: 0 },
          notifications: {
            enabled: true,
            email: { admin: { enabled: true, recipients: ['ops@acme.test'] }, submitter: { enabled: true, field: 'work' } },
            push: { admin: { enabled: true }, submitter: { enabled: false } },
          },
          flow: { nextFormId: target.id.toUpperCase(), previousFormId: previous.id },
          sections: [
            {
              title: { en: 'You' },
              description: { de: 'Über Sie' },
              fields: [
                { name: 'home', type: 'email', label: { en: 'Home' } },
                { name: 'work', type: 'email', label: { en: 'Work' }, required: true, placeholder: { en: 'you@work' } },
                { name: 'plan', type: 'select', label: { en: 'Plan' }, options: [{ value: 'free', label: { en: 'Free' } }, { value: 'pro', label: { es: 'Pro' } }] },
                { name: 'company', type: 'relation', label: { en: 'Company' }, relation: { formId: target.id, multiple: true } },
                { name: 'owner', type: 'relation', label: { en: 'Owner' }, relation: { formId: target.id } },
              ],
            },
            { fields: [{ name: 'age', type: 'number', label: { en: 'Age' } }] },
          ],
        });
        const res = await create(body);
        expect(res.status).to.equal(201);
        const form = res.body.data.form;
        expect(form).to.deep.include({
          title: { en: 'Sign-up', fr: 'Inscription' },
          description: { en: 'Join us' },
          submitButtonText: { ar: 'إرسال' },
          isActive: false,
          visibility: 'internal',
          captcha: { enabled: true, provider: 'turnstile', minScore: 0 },
          notifications: body.notifications,
          flow: { nextFormId: target.id, previousFormId: previous.id },
        });
        const [you, more] = form.sections;
        expect(you.title).to.deep.equal({ en: 'You' });
        expect(you.description).to.deep.equal({ de: 'Über Sie' });
        expect(you.fields[1]).to.deep.equal({ name: 'work', type: 'email', label: { en: 'Work' }, required: true, placeholder: { en: 'you@work' } });
        expect(you.fields[2].options).to.deep.equal([{ value: 'free', label: { en: 'Free' } }, { value: 'pro', label: { es: 'Pro' } }]);
        expect(you.fields[3].relation).to.deep.equal({ formId: target.id, multiple: true });
        expect(you.fields[4].relation).to.deep.equal({ formId: target.id, multiple: false });
        expect(more.fields[0]).to.deep.equal({ name: 'age', type: 'number', label: { en: 'Age' }, required: false, placeholder: {} });
      });

      it('defaults the submitter e-mail field to the first email field', async () => {
        const form = await createForm(api, slug(), { notifications: { enabled: true, email: { submitter: { enabled: true } } } });
        expect(form.notifications.email.submitter).to.deep.equal({ enabled: true, field: 'email' });
      });
    });

    describe('when a rule beyond the schema is broken', () => {
      let foreign: any;
      before(async () => {
        foreign = await createForm(api, 'foreign-target', {}, { key: TEST_KEYS.b });
      });
      const field = (extra: object) => formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' }, ...extra }, { name: 'mail', type: 'email', label: { en: 'M' } }] }] });
      const cases: Array<[string, () => unknown, string]> = [
        ['a title language the tenant lacks', () => formBody(slug(), { title: { en: 'T', it: 'T' } }), 'body.title.it is not a configured language (en, ar, fr, es, de)'],
        ['a blank title', () => formBody(slug(), { title: { en: '   ' } }), 'body.title.en must not be blank'],
        ['a description language the tenant lacks', () => formBody(slug(), { description: { pt: 'x' } }), 'body.description.pt is not a configured language'],
        ['a section title language the tenant lacks', () => formBody(slug(), { sections: [{ title: { nl: 'x' }, fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] }), 'body.sections[0].title.nl is not a configured language'],
        ['a label language the tenant lacks', () => field({ label: { xx: 'A' } }), 'body.sections[0].fields[0].label.xx is not a configured language'],
        ['a placeholder language the tenant lacks', () => field({ placeholder: { ru: 'p' } }), 'body.sections[0].fields[0].placeholder.ru is not a configured language'],
        ['an option label language the tenant lacks', () => field({ type: 'select', options: [{ value: 'v', label: { ja: 'V' } }] }), 'body.sections[0].fields[0].options[0].label.ja is not a configured language'],
        [
          'a field name repeated in another section',
          () => formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }, { fields: [{ name: 'a', type: 'email', label: { en: 'A' } }] }] }),
          'body.sections[1].fields[0].name duplicates the field name "a"',
        ],
        ['a select without options', () => field({ type: 'select' }), 'body.sections[0].fields[0].options is required for a select field'],
        ['options on a text field', () => field({ options: [{ value: 'v', label: { en: 'V' } }] }), 'body.sections[0].fields[0].options is only allowed on a select field'],
        ['a relation field without relation', () => field({ type: 'relation' }), 'body.sections[0].fields[0].relation is required for a relation field'],
        ['relation on a text field', () => field({ relation: { formId: 'a'.repeat(24) } }), 'body.sections[0].fields[0].relation is only allowed on a relation field'],
        ['a relation to an unknown form', () => field({ type: 'relation', relation: { formId: 'a'.repeat(24) } }), 'body.sections[0].fields[0].relation.formId does not name a form of this tenant'],
        ['a relation to another tenant’s form', () => field({ type: 'relation', relation: { formId: foreign.id } }), 'body.sections[0].fields[0].relation.formId does not name a form of this tenant'],
        ['a next form that does not exist', () => formBody(slug(), { flow: { nextFormId: 'b'.repeat(24) } }), 'body.flow.nextFormId does not name a form of this tenant'],
        ['a previous form of another tenant', () => formBody(slug(), { flow: { previousFormId: foreign.id } }), 'body.flow.previousFormId does not name a form of this tenant'],
        ['a submitter field that is not an email field', () => formBody(slug(), { notifications: { email: { submitter: { field: 'name' } } } }), 'body.notifications.email.submitter.field does not name an email field of this form'],
      ];
      for (const [name, body, message] of cases) {
        it(`answers 400 for ${name}`, async () => {
          const res = await create(body());
          expect(res.status).to.equal(400);
          expect(res.body.message).to.contain(`Validation failed: ${message}`);
          expect(res.body.data).to.equal(null);
        });
      }
    });

    describe('when the slug is taken', () => {
      it('answers 409 Form slug already exists, and another tenant may use it', async () => {
        await createForm(api, 'taken');
        const res = await create(formBody('taken'));
        expect(res.status).to.equal(409);
        expect(res.body).to.deep.equal({ success: false, statusCode: 409, message: 'Form slug already exists', data: null });
        expect((await create(formBody('taken'), { key: TEST_KEYS.b })).status).to.equal(201);
      });

      it('lets exactly one of six concurrent creates with one slug win', async () => {
        const results = await Promise.all(Array.from({ length: 6 }, () => create(formBody('race'))));
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).to.deep.equal([201, 409, 409, 409, 409, 409]);
        const winner = results.find((r) => r.status === 201)!.body.data.form;
        expect((await api.call('GET', `/forms/getById/${winner.id}`)).status).to.equal(200);
      });
    });

    describe('when the credentials fail', () => {
      it('answers 401 before looking at the body', async () => {
        const res = await create({ nonsense: true }, { key: null });
        expect(res.status).to.equal(401);
        expect(res.body.message).to.equal('Unauthorized');
      });
    });
  });
}

describe('POST /forms/create with CAPTCHA_PROVIDER_DEFAULT and CMS_LANGUAGES', () => {
  let api: TestService;
  before(async () => {
    api = await startTestService({ CAPTCHA_PROVIDER_DEFAULT: 'hcaptcha', CMS_LANGUAGES: 'en,it' });
  });
  after(() => api.stop());

  it('takes the form’s default provider from the setting', async () => {
    expect((await createForm(api, 'provider-default')).captcha).to.deep.equal({ enabled: false, provider: 'hcaptcha', minScore: 0.5 });
  });

  it('accepts the configured languages and refuses the others', async () => {
    expect((await createForm(api, 'italian', { title: { it: 'Contatto' } })).title).to.deep.equal({ it: 'Contatto' });
    const res = await api.call('POST', '/forms/create', { body: formBody('french', { title: { fr: 'Contact' } }) });
    expect(res.status).to.equal(400);
    expect(res.body.message).to.equal('Validation failed: body.title.fr is not a configured language (en, it)');
  });
});

for (const storage of TEST_STORAGES) {
  describe(`GET /forms/getById/{id} (storage: ${storage})`, () => {
    let api: TestService;
    let form: any;
    before(async () => {
      api = await startTestService({}, { storage });
      form = await createForm(api, 'readable');
    });
    after(() => api.stop());

    for (const id of ['abc', 'a'.repeat(23), 'a'.repeat(25), 'g'.repeat(24)]) {
      it(`answers 400 Invalid form id for "${id}"`, async () => {
        const res = await api.call('GET', `/forms/getById/${id}`);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid form id', data: null });
      });
    }

    it('answers 404 Form not found for an unknown id', async () => {
      const res = await api.call('GET', `/forms/getById/${'a'.repeat(24)}`);
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Form not found', data: null });
    });

    it('answers 404 for another tenant’s form', async () => {
      const res = await api.call('GET', `/forms/getById/${form.id}`, { key: TEST_KEYS.b });
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Form not found');
    });

    it('finds the form by its id in upper case', async () => {
      const res = await api.call('GET', `/forms/getById/${form.id.toUpperCase()}`);
      expect(res.status).to.equal(200);
      expect(res.body.data.form.id).to.equal(form.id);
    });
  });
}
