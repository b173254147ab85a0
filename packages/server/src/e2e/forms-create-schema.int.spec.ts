/** §2.3 over HTTP: the strict JSON Schema of POST /forms/create — unknown properties and wrong shapes are 400. */
import { expect } from 'chai';
import { startTestService, type TestService } from '../testing/test-service.js';
import { CREATE_FORM_UNKNOWN_PROPERTIES, CREATE_FORM_WRONG_SHAPES } from './invalid-inputs.js';

describe('POST /forms/create body schema', () => {
  let api: TestService;
  before(async () => {
    api = await startTestService();
  });
  after(() => api.stop());
  const create = (body: unknown) => api.call('POST', '/forms/create', { body });

  describe('when the body has a property the contract does not describe', () => {
    const cases = CREATE_FORM_UNKNOWN_PROPERTIES;
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
    const cases = CREATE_FORM_WRONG_SHAPES;
    for (const [name, body, message] of cases) {
      it(`answers 400 for ${name}`, async () => {
        const res = await create(body);
        expect(res.status).to.equal(400);
        expect(res.body.message).to.contain(`Validation failed: ${message}`);
      });
    }
  });
});
