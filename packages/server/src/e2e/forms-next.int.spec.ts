/** §2.9 over HTTP: GET /forms/getNextById/{id}. */
import { expect } from 'chai';
import { startTestService, TEST_KEYS, TEST_STORAGES, type TestService } from '../testing/test-service.js';
import { createForm } from './form-requests.js';

const PUBLIC_KEYS = ['id', 'slug', 'title', 'description', 'submitButtonText', 'isActive', 'visibility', 'sections', 'captcha', 'flow', 'createdAt', 'updatedAt'];

for (const storage of TEST_STORAGES) {
  describe(`GET /forms/getNextById/{id} (storage: ${storage})`, () => {
    let api: TestService;
    before(async () => {
      api = await startTestService({}, { storage });
    });
    after(() => api.stop());
    const next = (id: string, key?: string) => api.call('GET', `/forms/getNextById/${id}`, key ? { key } : {});

    describe('when the flow has a usable next form (the README’s two-step flow)', () => {
      it('answers 200 with the next form’s public view', async () => {
        const b = await createForm(api, 'step-b', {
          captcha: { enabled: true, provider: 'hcaptcha', minScore: 0.7 },
          notifications: { enabled: true, email: { admin: { enabled: true, recipients: ['ops@acme.test'] } } },
        }, { headers: { 'x-user-id': 'editor-1' } });
        const a = await createForm(api, 'step-a', { flow: { nextFormId: b.id } });
        const res = await next(a.id);
        expect(res.status).to.equal(200);
        expect(res.body).to.include({ success: true, statusCode: 200, message: 'Next form retrieved successfully' });
        expect(Object.keys(res.body.data)).to.deep.equal(['nextForm']);
        const view = res.body.data.nextForm;
        expect(Object.keys(view)).to.have.members(PUBLIC_KEYS);
        expect(view.captcha).to.deep.equal({ enabled: true, provider: 'hcaptcha' });
        const { tenantId, notifications, createdBy, captcha, ...rest } = b;
        expect({ tenantId, createdBy, minScore: captcha.minScore, notificationsEnabled: notifications.enabled }).to.deep.equal({
          tenantId: 'tenant-a',
          createdBy: 'editor-1',
          minScore: 0.7,
          notificationsEnabled: true,
        });
        expect(view).to.deep.equal({ ...rest, captcha: { enabled: true, provider: 'hcaptcha' } });
      });

      it('needs no user and finds the current form by its id in upper case', async () => {
        const b = await createForm(api, 'upper-b');
        const a = await createForm(api, 'upper-a', { flow: { nextFormId: b.id } });
        const res = await next(a.id.toUpperCase());
        expect(res.status).to.equal(200);
        expect(res.body.data.nextForm.id).to.equal(b.id);
      });
    });

    describe('when there is no usable next form', () => {
      it('answers nextForm null without flow.nextFormId', async () => {
        const a = await createForm(api, 'alone', { flow: { previousFormId: (await createForm(api, 'before-alone')).id } });
        const res = await next(a.id);
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal({ nextForm: null });
      });

      it('answers nextForm null when the next form is inactive', async () => {
        const b = await createForm(api, 'inactive-b', { isActive: false });
        const a = await createForm(api, 'inactive-a', { flow: { nextFormId: b.id } });
        expect((await next(a.id)).body.data).to.deep.equal({ nextForm: null });
      });

      it('answers nextForm null when the next form is internal', async () => {
        const b = await createForm(api, 'internal-b', { visibility: 'internal' });
        const a = await createForm(api, 'internal-a', { flow: { nextFormId: b.id } });
        expect((await next(a.id)).body.data).to.deep.equal({ nextForm: null });
      });

      it('still answers for an inactive or internal current form', async () => {
        const b = await createForm(api, 'target-of-hidden');
        const a = await createForm(api, 'hidden-a', { isActive: false, visibility: 'internal', flow: { nextFormId: b.id } });
        expect((await next(a.id)).body.data.nextForm.id).to.equal(b.id);
      });
    });

    describe('when the current form cannot be found', () => {
      for (const id of ['abc', 'z'.repeat(24), '1'.repeat(25)]) {
        it(`answers 400 Invalid form id for "${id}"`, async () => {
          const res = await next(id);
          expect(res.status).to.equal(400);
          expect(res.body).to.deep.equal({ success: false, statusCode: 400, message: 'Invalid form id', data: null });
        });
      }

      it('answers 404 Form not found for an unknown id', async () => {
        const res = await next('c'.repeat(24));
        expect(res.status).to.equal(404);
        expect(res.body).to.deep.equal({ success: false, statusCode: 404, message: 'Form not found', data: null });
      });

      it('answers 404 for another tenant’s form', async () => {
        const b = await createForm(api, 'iso-b');
        const a = await createForm(api, 'iso-a', { flow: { nextFormId: b.id } });
        const res = await next(a.id, TEST_KEYS.b);
        expect(res.status).to.equal(404);
        expect(res.body.message).to.equal('Form not found');
      });

      it('answers 401 without an API key', async () => {
        expect((await api.call('GET', `/forms/getNextById/${'c'.repeat(24)}`, { key: null })).status).to.equal(401);
      });
    });
  });
}
