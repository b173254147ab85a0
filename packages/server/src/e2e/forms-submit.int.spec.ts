/** §2.5 companions over HTTP: public and internal submit, value checks, GET /forms/submission/{id}. */
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm, HEX_ID, ISO_MS, submitForm } from './form-requests.js';

const SUBMISSION_KEYS = ['id', 'formId', 'values', 'relations', 'submittedBy', 'createdAt', 'updatedAt'];

for (const storage of TEST_STORAGES) {
  describe(`POST /forms/{id}/submit (storage: ${storage})`, () => {
    let api: TestService;
    let open: any;
    let inactive: any;
    let internal: any;
    let foreign: any;
    before(async () => {
      api = await startTestService({}, { storage });
      open = await createForm(api, 'open');
      inactive = await createForm(api, 'inactive', { isActive: false, visibility: 'internal', captcha: { enabled: true } });
      internal = await createForm(api, 'internal', { visibility: 'internal', captcha: { enabled: true } });
      foreign = await createForm(api, 'foreign', {}, { key: TEST_KEYS.b });
    });
    after(() => api.stop());
    const submit = (id: string, body: unknown, headers: Record<string, string> = {}) => api.call('POST', `/forms/${id}/submit`, { body, headers });

    describe('when a form has optional fields named after Object.prototype members', () => {
      it('accepts a submission that leaves them out, and stores them when answered', async () => {
        const fields = [
          { name: 'n', type: 'text', label: { en: 'N' }, required: true },
          { name: 'constructor', type: 'text', label: { en: 'C' } },
          { name: 'toString', type: 'number', label: { en: 'T' } },
          { name: 'valueOf', type: 'checkbox', label: { en: 'V' } },
        ];
        const form = await createForm(api, 'prototype-names', { sections: [{ fields }] });
        const left = await submit(form.id, { values: { n: 'x' } });
        expect(left.status, JSON.stringify(left.body)).to.equal(201);
        expect(left.body.data.submission.values).to.deep.equal({ n: 'x' });
        const answered = await submit(form.id, { values: { n: 'x', constructor: 'c', toString: 2, valueOf: true } });
        expect(answered.status).to.equal(201);
        expect(answered.body.data.submission.values).to.deep.equal({ n: 'x', constructor: 'c', toString: 2, valueOf: true });
      });
    });

    describe('when a guest submits valid values', () => {
      it('answers 201 with the submission: empty relations, submittedBy null', async () => {
        const res = await submit(open.id, { values: { name: 'Ada', email: 'ada@example.org' } });
        expect(res.status).to.equal(201);
        expect(res.body).to.include({ success: true, statusCode: 201, message: 'Form submitted successfully' });
        const submission = res.body.data.submission;
        expect(Object.keys(submission)).to.have.members(SUBMISSION_KEYS);
        expect(submission.id).to.match(HEX_ID);
        expect(submission).to.deep.include({ formId: open.id, values: { name: 'Ada', email: 'ada@example.org' }, relations: {}, submittedBy: null });
        expect(submission.createdAt).to.match(ISO_MS);
        expect(submission.updatedAt).to.equal(submission.createdAt);
      });

      it('records the x-user-id as submittedBy and finds the form by its id in upper case', async () => {
        const res = await submit(open.id.toUpperCase(), { values: { name: 'Ada' } }, { 'x-user-id': 'member-1' });
        expect(res.status).to.equal(201);
        expect(res.body.data.submission.submittedBy).to.equal('member-1');
        expect(res.body.data.submission.formId).to.equal(open.id);
      });
    });

    describe('when the submit is refused', () => {
      const badBody = { nope: true };
      it('answers 400 Invalid form id first', async () => {
        const res = await submit('abc', badBody);
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid form id', data: null });
      });

      it('answers 404 Form not found for an unknown form, before the body', async () => {
        const res = await submit('d'.repeat(24), badBody);
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Form not found', data: null });
      });

      it('answers 404 for another tenant’s form', async () => {
        const res = await submit(foreign.id, { values: { name: 'Ada' } });
        expect(res.status).to.equal(404);
        expect(res.body.message).to.equal('Form not found');
      });

      it('answers 403 Form is not active before the internal check, the CAPTCHA gate and the body', async () => {
        const res = await submit(inactive.id, badBody);
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal({ success: false, statusCode: 403, message: 'Form is not active', data: null });
      });

      it('answers 403 Form is internal before the CAPTCHA gate and the body', async () => {
        const res = await submit(internal.id, badBody);
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal({ success: false, statusCode: 403, message: 'Form is internal', data: null });
      });
    });

    describe('when the values are wrong', () => {
      let kinds: any;
      before(async () => {
        const target = await createForm(api, 'kinds-target');
        kinds = await createForm(api, 'kinds', {
          sections: [
            {
              fields: [
                { name: 'name', type: 'text', label: { en: 'Name' }, required: true },
                { name: 'email', type: 'email', label: { en: 'E-mail' } },
                { name: 'age', type: 'number', label: { en: 'Age' } },
                { name: 'site', type: 'url', label: { en: 'Site' } },
                { name: 'born', type: 'date', label: { en: 'Born' } },
                { name: 'plan', type: 'select', label: { en: 'Plan' }, options: [{ value: 'free', label: { en: 'Free' } }, { value: 'pro', label: { en: 'Pro' } }] },
                { name: 'agree', type: 'checkbox', label: { en: 'Agree' } },
                { name: 'bio', type: 'textarea', label: { en: 'Bio' } },
                { name: 'phone', type: 'phone', label: { en: 'Phone' } },
                { name: 'company', type: 'relation', label: { en: 'Company' }, relation: { formId: target.id } },
              ],
            },
          ],
        });
      });

      it('accepts a value of every kind', async () => {
        const values = { name: 'Ada', email: 'ada@example.org', age: 36, site: 'https://example.org', born: '1815-12-10', plan: 'pro', agree: true, bio: 'Maths', phone: '+44 1' };
        expect((await submitForm(api, kinds.id, values)).values).to.deep.equal(values);
      });

      const cases: Array<[string, unknown, string]> = [
        ['a body that is not an object', [1], 'body must be an object'],
        ['a body without values', {}, 'body.values is required'],
        ['a property beside values', { values: { name: 'A' }, extra: 1 }, 'body.extra is not allowed'],
        ['an unknown field name', { values: { name: 'A', nick: 'x' } }, 'body.values.nick is not a field of this form'],
        ['a missing required field', { values: { email: 'a@b.co' } }, 'body.values.name is required'],
        ['a blank required field', { values: { name: '   ' } }, 'body.values.name is required'],
        ['an address that is not one', { values: { name: 'A', email: 'nobody' } }, 'body.values.email must be an e-mail address'],
        ['a number as a string', { values: { name: 'A', age: '36' } }, 'body.values.age must be a finite number'],
        ['a URL of another scheme', { values: { name: 'A', site: 'javascript:alert(1)' } }, 'body.values.site must be an http(s) URL'],
        ['a date in another format', { values: { name: 'A', born: '10.12.1815' } }, 'body.values.born must be a date in the form YYYY-MM-DD'],
        ['an unknown option', { values: { name: 'A', plan: 'gold' } }, 'body.values.plan must be one of free, pro'],
        ['a checkbox as a string', { values: { name: 'A', agree: 'yes' } }, 'body.values.agree must be a boolean'],
        ['a text of 10001 characters', { values: { name: 'A', bio: 'x'.repeat(10_001) } }, 'body.values.bio must be a string of at most 10000 characters'],
        ['any value for a relation field', { values: { name: 'A', company: 'a'.repeat(24) } }, 'body.values.company is a relation field'],
      ];
      for (const [name, body, message] of cases) {
        it(`answers 400 for ${name}`, async () => {
          const res = await submit(kinds.id, body);
          expect(res.status).to.equal(400);
          expect(res.body.message).to.contain(`Validation failed: ${message}`);
          expect(res.body.data).to.equal(null);
        });
      }
    });
  });
}

for (const storage of TEST_STORAGES) {
  describe(`POST /forms/{id}/internal-submit (storage: ${storage})`, () => {
    let api: TestService;
    let internal: any;
    let open: any;
    let inactive: any;
    before(async () => {
      api = await startTestService({}, { storage });
      internal = await createForm(api, 'internal', { visibility: 'internal', captcha: { enabled: true } });
      open = await createForm(api, 'open');
      inactive = await createForm(api, 'inactive', { isActive: false });
    });
    after(() => api.stop());
    const submit = (id: string, body: unknown, headers: Record<string, string> = { 'x-user-id': 'staff-1' }) =>
      api.call('POST', `/forms/${id}/internal-submit`, { body, headers });

    it('answers 401 Unauthorized without a user, before the id check', async () => {
      const res = await submit('abc', { values: {} }, {});
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, statusCode: 401, message: 'Unauthorized', data: null });
    });

    it('accepts an internal form without CAPTCHA and records the user', async () => {
      const res = await submit(internal.id, { values: { name: 'Ada' } });
      expect(res.status).to.equal(201);
      expect(res.body.message).to.equal('Form submitted successfully');
      expect(res.body.data.submission).to.deep.include({ formId: internal.id, submittedBy: 'staff-1', relations: {} });
    });

    it('accepts a public form, and a bearer token’s user', async () => {
      const token = await api.token({ sub: 'author-2', role: 'author' });
      const res = await submit(open.id, { values: { name: 'Ada' } }, { authorization: `Bearer ${token}` });
      expect(res.status).to.equal(201);
      expect(res.body.data.submission.submittedBy).to.equal('author-2');
    });

    it('runs the same form and values checks', async () => {
      expect((await submit('abc', { values: {} })).body.message).to.equal('Invalid form id');
      expect((await submit('e'.repeat(24), { values: {} })).body.message).to.equal('Form not found');
      const refused = await submit(inactive.id, { bad: 1 });
      expect([refused.status, refused.body.message]).to.deep.equal([403, 'Form is not active']);
      const invalid = await submit(open.id, { values: {} });
      expect([invalid.status, invalid.body.message]).to.deep.equal([400, 'Validation failed: body.values.name is required']);
    });

    it('answers 404 for another tenant’s form', async () => {
      const res = await api.call('POST', `/forms/${internal.id}/internal-submit`, { key: TEST_KEYS.b, body: { values: { name: 'A' } }, headers: { 'x-user-id': 'u' } });
      expect(res.status).to.equal(404);
      expect(res.body.message).to.equal('Form not found');
    });
  });
}

for (const storage of TEST_STORAGES) {
  describe(`GET /forms/submission/{id} (storage: ${storage})`, () => {
    let api: TestService;
    let submission: any;
    before(async () => {
      api = await startTestService({}, { storage });
      const form = await createForm(api, 'readable');
      submission = await submitForm(api, form.id, { name: 'Ada' });
    });
    after(() => api.stop());

    it('answers 200 with the stored submission, found by its id in upper case', async () => {
      const res = await api.call('GET', `/forms/submission/${submission.id.toUpperCase()}`);
      expect(res.status).to.equal(200);
      expect(res.body.message).to.equal('Submission retrieved successfully');
      expect(res.body.data.submission).to.deep.equal(submission);
    });

    it('answers 400 Invalid submission id for a malformed id', async () => {
      const res = await api.call('GET', '/forms/submission/xyz');
      expect(res.status).to.equal(400);
      expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid submission id', data: null });
    });

    it('answers 404 Submission not found for an unknown id and for another tenant’s', async () => {
      for (const [id, key] of [['f'.repeat(24), TEST_KEYS.a], [submission.id, TEST_KEYS.b]] as const) {
        const res = await api.call('GET', `/forms/submission/${id}`, { key });
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Submission not found', data: null });
      }
    });
  });
}
