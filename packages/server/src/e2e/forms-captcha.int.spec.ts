/** A form's CAPTCHA gate over HTTP (§2.5 public submit, §1 token placement), with a controllable verifier. */
import { CaptchaVerifierToken, StaticCaptchaVerifier } from '@cms/core';
import { expect } from 'chai';
import { request } from 'node:http';
import { startTestService, TEST_KEYS, type TestService } from '../testing/test-service.js';
import { createForm } from './form-requests.js';

describe('POST /forms/{id}/submit with a CAPTCHA gate', () => {
  let api: TestService;
  let verifier: StaticCaptchaVerifier;
  let gated: any;
  let open: any;
  before(async () => {
    verifier = new StaticCaptchaVerifier(new Map<string, number | undefined>([['no-score', undefined], ['high', 0.9], ['low', 0.2], ['edge', 0.6]]));
    api = await startTestService({}, { configure: (container) => void container.rebind(CaptchaVerifierToken).toConstantValue(verifier) });
    gated = await createForm(api, 'gated', { captcha: { enabled: true, provider: 'hcaptcha', minScore: 0.6 } });
    open = await createForm(api, 'open');
  });
  after(() => api.stop());
  beforeEach(() => {
    verifier.calls.length = 0;
  });
  const submit = (id: string, options: { headers?: Record<string, string>; query?: string } = {}) =>
    api.call('POST', `/forms/${id}/submit${options.query ?? ''}`, { headers: options.headers ?? {}, body: { values: { name: 'Ada' } } });

  describe('when no token is sent', () => {
    it('answers 401 captchaToken is required, without asking the provider', async () => {
      const res = await submit(gated.id);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal({ success: false, statusCode: 401, message: 'captchaToken is required', data: null });
      expect(verifier.calls).to.deep.equal([]);
    });

    it('answers 401 to a signed-in user too', async () => {
      const res = await submit(gated.id, { headers: { 'x-user-id': 'member-1' } });
      expect(res.status).to.equal(401);
      expect(res.body.message).to.equal('captchaToken is required');
    });

    it('answers 401 before looking at the values', async () => {
      const res = await api.call('POST', `/forms/${gated.id}/submit`, { body: { values: { nick: 'x' } } });
      expect(res.status).to.equal(401);
    });
  });

  describe('when the provider rejects the token or scores it low', () => {
    for (const [name, token] of [['a rejected token', 'forged'], ['a score below minScore', 'low']] as const) {
      it(`answers 403 CAPTCHA verification failed for ${name}`, async () => {
        const res = await submit(gated.id, { headers: { 'x-captcha-token': token } });
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal({ success: false, statusCode: 403, message: 'CAPTCHA verification failed', data: null });
        expect(verifier.calls).to.deep.equal([{ provider: 'hcaptcha', token }]);
      });
    }
  });

  describe('when the provider accepts the token', () => {
    for (const [name, token] of [['a score above minScore', 'high'], ['a score equal to minScore', 'edge'], ['a verdict without a score', 'no-score']] as const) {
      it(`answers 201 for ${name}`, async () => {
        const res = await submit(gated.id, { headers: { 'x-captcha-token': token } });
        expect(res.status).to.equal(201);
        expect(res.body.data.submission.values).to.deep.equal({ name: 'Ada' });
      });
    }

    it('reads the token from the query parameter captchaToken', async () => {
      const res = await submit(gated.id, { query: '?captchaToken=high' });
      expect(res.status).to.equal(201);
      expect(verifier.calls).to.deep.equal([{ provider: 'hcaptcha', token: 'high' }]);
    });

    it('lets the header win over the query parameter', async () => {
      const res = await submit(gated.id, { headers: { 'x-captcha-token': 'forged' }, query: '?captchaToken=high' });
      expect(res.status).to.equal(403);
      expect(verifier.calls).to.deep.equal([{ provider: 'hcaptcha', token: 'forged' }]);
    });

    it('gates a signed-in user the same way', async () => {
      const res = await submit(gated.id, { headers: { 'x-user-id': 'member-1', 'x-captcha-token': 'high' } });
      expect(res.status).to.equal(201);
      expect(res.body.data.submission.submittedBy).to.equal('member-1');
    });
  });

  describe('when the query parameter captchaToken is given twice', () => {
    const repeated = { success: false, statusCode: 400, message: 'Validation failed: query.captchaToken must be given only once', data: null, errors: [{ path: 'query.captchaToken', message: 'must be given only once' }] };

    it('answers 400 query.captchaToken must be given only once, to guests and users, whatever the form’s gate, without asking the provider', async () => {
      for (const [form, headers] of [[gated, {}], [gated, { 'x-user-id': 'member-1' }], [open, {}]] as const) {
        const res = await submit(form.id, { headers, query: '?captchaToken=high&captchaToken=high' });
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.equal(repeated);
      }
      expect(verifier.calls).to.deep.equal([]);
    });

    it('answers 400 headers.x-captcha-token must be given only once for the header sent twice, without asking the provider', async () => {
      // Node joins repeated lines with ", "; fetch cannot send two, so this goes through node:http.
      for (const form of [gated, open]) {
        const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = request(`${api.baseUrl}/forms/${form.id}/submit`, {
            method: 'POST',
            headers: { 'x-api-key': TEST_KEYS.a, 'content-type': 'application/json', 'x-captcha-token': ['high', 'high'] as unknown as string },
          });
          req.on('response', (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          });
          req.on('error', reject);
          req.end(JSON.stringify({ values: { name: 'Ada' } }));
        });
        expect(answer.status).to.equal(400);
        expect(JSON.parse(answer.body)).to.deep.equal({
          success: false,
          statusCode: 400,
          message: 'Validation failed: headers.x-captcha-token must be given only once',
          data: null,
          errors: [{ path: 'headers.x-captcha-token', message: 'must be given only once' }],
        });
      }
      expect(verifier.calls).to.deep.equal([]);
    });

    it('takes the header, which wins over the query parameter', async () => {
      const res = await submit(gated.id, { headers: { 'x-captcha-token': 'high' }, query: '?captchaToken=a&captchaToken=b' });
      expect(res.status).to.equal(201);
      expect(verifier.calls).to.deep.equal([{ provider: 'hcaptcha', token: 'high' }]);
    });
  });

  describe('when the form’s gate is off', () => {
    it('answers 201 without a token and never asks the provider', async () => {
      const res = await submit(open.id, { headers: { 'x-captcha-token': 'forged' } });
      expect(res.status).to.equal(201);
      expect(verifier.calls).to.deep.equal([]);
    });
  });
});
