/** §5 for the forms routes: each is in /cms/openapi.json with its schemas and outcomes. */
import { expect } from 'chai';
import { startTestService, type TestService } from '../testing/test-service.js';

describe('GET /cms/openapi.json for the forms routes', () => {
  let api: TestService;
  let paths: Record<string, Record<string, any>>;
  before(async () => {
    api = await startTestService();
    paths = (await api.call('GET', '/openapi.json', { key: null })).body.paths;
  });
  after(() => api.stop());

  const routes: Array<[string, string, string, Record<string, string>]> = [
    ['post', '/forms/create', '201', { 201: 'Form created successfully', 409: 'Form slug already exists' }],
    ['get', '/forms/getById/{id}', '200', { 200: 'Form retrieved successfully', 404: 'Form not found' }],
    ['get', '/forms/getNextById/{id}', '200', { 200: 'Next form retrieved successfully', 400: 'Invalid form id', 404: 'Form not found' }],
    ['post', '/forms/{id}/submit', '201', { 201: 'Form submitted successfully', 401: 'captchaToken is required', 403: 'CAPTCHA verification failed' }],
    ['post', '/forms/{id}/internal-submit', '201', { 401: 'Unauthorized', 403: 'Form is not active' }],
    ['get', '/forms/submission/{id}', '200', { 200: 'Submission retrieved successfully', 400: 'Invalid submission id', 404: 'Submission not found' }],
    [
      'post',
      '/forms/submission/{id}/relations/{fieldName}/connect',
      '200',
      { 200: 'Relation connected successfully', 400: 'Related submission belongs to another form', 404: 'Relation field not found' },
    ],
  ];
  for (const [method, path, success, messages] of routes) {
    it(`describes ${method.toUpperCase()} ${path} with its success and error outcomes`, () => {
      const operation = paths[path]?.[method];
      expect(operation, `${method} ${path}`).to.be.an('object');
      expect(operation.responses[success].content['application/json'].schema.properties.success).to.deep.equal({ const: true });
      for (const [status, message] of Object.entries(messages)) expect(operation.responses[status].description).to.contain(message);
      expect(operation.responses['500'].description).to.equal('Server Error');
    });
  }

  it('documents the strict create body with the same schema that validates it', () => {
    const schema = paths['/forms/create']!.post.requestBody.content['application/json'].schema;
    expect(schema.additionalProperties).to.equal(false);
    expect(schema.required).to.deep.equal(['title', 'slug', 'sections']);
    expect(schema.properties.sections.items.properties.fields.items.additionalProperties).to.equal(false);
  });

  it('documents the path parameters and the CAPTCHA token, in the header and as the query parameter', () => {
    const connect = paths['/forms/submission/{id}/relations/{fieldName}/connect']!.post;
    const own = (parameters: Array<{ name?: string; in?: string }>) => parameters.filter((p) => p.name !== undefined).map((p) => `${p.in}:${p.name}`);
    expect(own(connect.parameters)).to.deep.equal(['path:id', 'path:fieldName']);
    const submit = paths['/forms/{id}/submit']!.post;
    expect(own(submit.parameters)).to.deep.equal(['path:id', 'query:captchaToken', 'header:x-captcha-token', 'header:x-user-id']);
  });
});
