/** §2.3 over HTTP: the strict JSON Schema of POST /forms/create — unknown properties and wrong shapes are 400. */
import { expect } from 'chai';
import { startTestService, type TestService } from '../testing/test-service.js';
import { formBody } from './form-requests.js';

describe('POST /forms/create body schema', () => {
  let api: TestService;
  let slugs = 0;
  const slug = () => `schema-${++slugs}`;
  before(async () => {
    api = await startTestService();
  });
  after(() => api.stop());
  const create = (body: unknown) => api.call('POST', '/forms/create', { body });

  describe('when the body has a property the contract does not describe', () => {
    const base = () => formBody(slug());
    const withField = (extra: object) => formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' }, ...extra }] }] });
    const cases: Array<[string, unknown, string]> = [
      ['at the top level', { ...base(), colour: 'red' }, 'body.colour'],
      ['in a section', formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }], layout: 'grid' }] }), 'body.sections[0].layout'],
      ['in a field', withField({ foo: 1 }), 'body.sections[0].fields[0].foo'],
      ['in an option', withField({ type: 'select', options: [{ value: 'v', label: { en: 'V' }, icon: 'x' }] }), 'body.sections[0].fields[0].options[0].icon'],
      ['in a relation', withField({ type: 'relation', relation: { formId: 'a'.repeat(24), cascade: true } }), 'body.sections[0].fields[0].relation.cascade'],
      ['in captcha', { ...base(), captcha: { enabled: true, secret: 's' } }, 'body.captcha.secret'],
      ['in notifications', { ...base(), notifications: { sms: {} } }, 'body.notifications.sms'],
      ['in notifications.email', { ...base(), notifications: { email: { cc: [] } } }, 'body.notifications.email.cc'],
      ['in notifications.email.admin', { ...base(), notifications: { email: { admin: { bcc: [] } } } }, 'body.notifications.email.admin.bcc'],
      ['in notifications.email.submitter', { ...base(), notifications: { email: { submitter: { template: 'x' } } } }, 'body.notifications.email.submitter.template'],
      ['in notifications.push', { ...base(), notifications: { push: { everyone: {} } } }, 'body.notifications.push.everyone'],
      ['in notifications.push.admin', { ...base(), notifications: { push: { admin: { topic: 'x' } } } }, 'body.notifications.push.admin.topic'],
      ['in flow', { ...base(), flow: { loop: true } }, 'body.flow.loop'],
    ];
    for (const [name, body, path] of cases) {
      it(`answers 400 naming it ${name}`, async () => {
        const res = await create(body);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.include({ success: false, statusCode: 400, data: null });
        expect(res.body.message).to.equal(`Validation failed: ${path} is not allowed`);
        expect(res.body.errors).to.deep.equal([{ path, message: 'is not allowed' }]);
      });
    }
  });

  describe('when the body has the wrong shape', () => {
    const field = (extra: object) => formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' }, ...extra }] }] });
    const cases: Array<[string, unknown, string]> = [
      ['a body that is not an object', ['x'], 'body must be an object'],
      ['no title', { slug: slug(), sections: formBody('x').sections }, 'body.title is required'],
      ['an empty title map', formBody(slug(), { title: {} }), 'body.title must NOT have fewer than 1 properties'],
      ['a title that is not text', formBody(slug(), { title: { en: 5 } }), 'body.title.en must be a string'],
      ['a title over 500 characters', formBody(slug(), { title: { en: 'x'.repeat(501) } }), 'body.title.en must NOT have more than 500 characters'],
      ['a description over 5000 characters', formBody(slug(), { description: { en: 'x'.repeat(5001) } }), 'body.description.en must NOT have more than 5000 characters'],
      ['a submit text over 100 characters', formBody(slug(), { submitButtonText: { en: 'x'.repeat(101) } }), 'body.submitButtonText.en must NOT have more than 100 characters'],
      ['no slug', { title: { en: 'T' }, sections: formBody('x').sections }, 'body.slug is required'],
      ['an upper-case slug', formBody('Contact'), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
      ['a slug with a space', formBody('contact us'), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
      ['a slug of 101 characters', formBody('a'.repeat(101)), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
      ['no sections', formBody(slug(), { sections: [] }), 'body.sections must NOT have fewer than 1 items'],
      ['51 sections', formBody(slug(), { sections: Array.from({ length: 51 }, (_, i) => ({ fields: [{ name: `f${i}`, type: 'text', label: { en: 'F' } }] })) }), 'body.sections must NOT have more than 50 items'],
      ['a section without fields', formBody(slug(), { sections: [{ fields: [] }] }), 'body.sections[0].fields must NOT have fewer than 1 items'],
      ['201 fields', formBody(slug(), { sections: [{ fields: Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, type: 'text', label: { en: 'F' } })) }] }), 'body.sections[0].fields must NOT have more than 200 items'],
      ['a field name starting with a digit', field({ name: '1a' }), 'body.sections[0].fields[0].name must start with a letter and contain only letters, digits and underscores (at most 64 characters)'],
      ['an unknown field type', field({ type: 'colour' }), 'body.sections[0].fields[0].type must be one of text, email'],
      ['a field without label', formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text' }] }] }), 'body.sections[0].fields[0].label is required'],
      ['required as a string', field({ required: 'yes' }), 'body.sections[0].fields[0].required must be a boolean'],
      ['an empty options list', field({ type: 'select', options: [] }), 'body.sections[0].fields[0].options must NOT have fewer than 1 items'],
      ['201 options', field({ type: 'select', options: Array.from({ length: 201 }, (_, i) => ({ value: `v${i}`, label: { en: 'V' } })) }), 'body.sections[0].fields[0].options must NOT have more than 200 items'],
      ['a malformed relation form id', field({ type: 'relation', relation: { formId: 'nope' } }), 'body.sections[0].fields[0].relation.formId must be an id of 24 hexadecimal characters'],
      ['an unknown visibility', formBody(slug(), { visibility: 'secret' }), 'body.visibility must be one of public, internal'],
      ['an unknown CAPTCHA provider', formBody(slug(), { captcha: { provider: 'recaptcha-v2' } }), 'body.captcha.provider must be one of recaptcha, hcaptcha, turnstile, none'],
      ['minScore above 1', formBody(slug(), { captcha: { minScore: 1.5 } }), 'body.captcha.minScore must be <= 1'],
      ['minScore below 0', formBody(slug(), { captcha: { minScore: -0.1 } }), 'body.captcha.minScore must be >= 0'],
      ['captcha as a number', formBody(slug(), { captcha: 5 }), 'body.captcha must be an object'],
      ['a recipient that is not an address', formBody(slug(), { notifications: { email: { admin: { recipients: ['ops'] } } } }), 'body.notifications.email.admin.recipients[0] must be an e-mail address'],
      ['a malformed next form id', formBody(slug(), { flow: { nextFormId: '123' } }), 'body.flow.nextFormId must be an id of 24 hexadecimal characters'],
    ];
    for (const [name, body, message] of cases) {
      it(`answers 400 for ${name}`, async () => {
        const res = await create(body);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.contain(`Validation failed: ${message}`);
      });
    }
  });
});
