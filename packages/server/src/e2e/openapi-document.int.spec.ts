/**
 * GET /cms/openapi.json as a code generator reads it (issue 16 item 2): valid OpenAPI 3.1 by an
 * independent validator, every header an operation reads declared on it, enums typed, language
 * codes an enum of the configured languages, 413/415/429 where they can happen; and no
 * validation message of any route shows a regular expression.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { RouteModuleToken, wordsForPattern, type RouteDefinition } from '@cms/adapter-koa';
import { headerProblems } from '../testing/documented-headers.js';
import { engagementClient, guest } from '../testing/engagement-client.js';
import { startTestService, type CallResult, type TestService } from '../testing/test-service.js';
import { createForm } from './form-requests.js';

type Operation = { parameters: Array<{ name?: string; $ref?: string }>; responses: Record<string, unknown>; requestBody?: unknown };

describe('GET /cms/openapi.json as a generator reads it', () => {
  let api: TestService;
  let document: any;
  const operations: Array<[string, Operation]> = [];
  before(async () => {
    api = await startTestService({ CMS_LANGUAGES: 'en,fr,pt-BR', GUEST_REACTION_LIMIT: '1' });
    document = (await api.call('GET', '/openapi.json', { key: null })).body;
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(methods)) operations.push([`${method.toUpperCase()} ${path}`, operation]);
    }
  });
  after(() => api.stop());

  it('is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator, version 1.0.0 with a license', async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? [], JSON.stringify(result.errors ?? []).slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(document.info).to.include({ version: '1.0.0' });
    expect(document.info.license.name).to.be.a('string');
  });

  it('declares on every operation the request-id and traceparent headers the edge reads', () => {
    for (const [name, operation] of operations) {
      const refs = operation.parameters.map((parameter) => parameter.$ref);
      expect(refs, name).to.include.members(['#/components/parameters/RequestId', '#/components/parameters/Traceparent']);
    }
    expect(document.components.parameters.Traceparent).to.include({ name: 'traceparent', in: 'header' });
  });

  it('declares x-user-id where the caller’s user matters, and the guest headers on guest routes', () => {
    const headers = (name: string) => operations.find(([key]) => key === name)![1].parameters.map((parameter) => parameter.name);
    for (const name of ['PUT /reports/dashboardConfig', 'GET /reports/dashboardConfig', 'PUT /ai/repurpose/template', 'PUT /articles/{id}/reaction']) {
      expect(headers(name), name).to.include('x-user-id');
    }
    expect(headers('PUT /articles/{id}/reaction')).to.include.members(['x-guest-id', 'x-captcha-token']);
    expect(headers('POST /articles/create'), 'a role route: only a bearer token counts').not.to.include('x-user-id');
    expect(headers('GET /articles/comments/{commentId}/reactionSummary'), 'userReaction is a guest’s own too').to.include('x-guest-id');
    expect(headers('POST /forms/{id}/submit'), 'a form’s CAPTCHA gate').to.include.members(['x-captcha-token', 'captchaToken']);
  });

  it('gives every enum its type', () => {
    const untyped: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) return value.forEach((item, i) => walk(item, `${at}[${i}]`));
      if (typeof value !== 'object' || value === null) return;
      const schema = value as Record<string, unknown>;
      if (Array.isArray(schema.enum) && schema.type === undefined) untyped.push(at);
      for (const [key, member] of Object.entries(schema)) if (key !== 'enum' && key !== 'example') walk(member, `${at}.${key}`);
    };
    walk(document.paths, 'paths');
    expect(untyped).to.deep.equal([]);
  });

  it('documents language codes as the enum of the configured languages', () => {
    const translate = document.paths['/ai/translate'].post.requestBody.content['application/json'].schema;
    expect(translate.properties.targetLanguage).to.include({ type: 'string' });
    expect(translate.properties.targetLanguage.enum).to.deep.equal(['en', 'fr', 'pt-BR']);
    // The enum is this deployment's setting, and says so: @cms/client types it as a string (0834).
    expect(translate.properties.targetLanguage['x-enum-setting']).to.equal('CMS_LANGUAGES');
    const title = document.paths['/forms/create'].post.requestBody.content['application/json'].schema.properties.title;
    expect(JSON.stringify(title)).to.contain('"enum":["en","fr","pt-BR"]');
    expect(JSON.stringify(document)).not.to.contain('x-language-code');
  });

  it('documents 413 and 415 on every operation with a body and on no other, and 429 where a limit can refuse', () => {
    for (const [name, operation] of operations) {
      if (operation.requestBody) expect(Object.keys(operation.responses), name).to.include.members(['413', '415']);
      else expect(Object.keys(operation.responses), name).not.to.include.any.members(['413', '415']);
    }
    for (const name of ['POST /ai/translate', 'PUT /articles/{id}/reaction', 'POST /articles/{id}/comments']) {
      expect(Object.keys(operations.find(([key]) => key === name)![1].responses), name).to.include('429');
    }
  });

  it('documents no 400 for a form read by slug, whose bad slug is 404 Form not found (§6.2)', async () => {
    expect(Object.keys(document.paths['/forms/getBySlug/{slug}'].get.responses)).not.to.include('400');
    const res = await api.call('GET', `/forms/getBySlug/${encodeURIComponent('Not A Slug!')}`);
    expect([res.status, res.body.message]).to.deep.equal([404, 'Form not found']);
  });

  it('declares the headers answers carry where the examples do not go: a 304, a 429, the CSV export', async () => {
    const operation = (id: string) => operations.find(([, op]) => (op as { operationId?: string }).operationId === id)![1];
    const problems = (id: string, answer: CallResult) => {
      const response = operation(id).responses[String(answer.status)] as Record<string, unknown> | undefined;
      return response ? headerProblems(document, response, answer.headers) : [`${answer.status} not documented`];
    };
    const form = await createForm(api, 'declared-headers');
    const read = await api.call('GET', `/forms/getById/${form.id}`);
    const notModified = await api.call('GET', `/forms/getById/${form.id}`, { headers: { 'if-none-match': read.headers.get('etag')! } });
    expect(notModified.status).to.equal(304);
    expect(problems('getFormById', notModified)).to.deep.equal([]);
    const csv = await api.call('GET', `/forms/${form.id}/submissions/export?format=csv`);
    expect(csv.headers.get('content-disposition')).to.equal('attachment; filename="declared-headers-submissions.csv"');
    expect(problems('exportFormSubmissions', csv)).to.deep.equal([]);
    const article = await engagementClient(api).article();
    const react = () => api.call('PUT', `/articles/${article.id}/reaction`, { headers: guest('guest-declared-01'), body: { type: 'like' } });
    expect((await react()).status).to.equal(200);
    const limited = await react();
    expect(limited.status).to.equal(429);
    expect(problems('setArticleReaction', limited)).to.deep.equal([]);
    for (const [name, op] of operations) {
      const tooMany = op.responses['429'] as { headers?: Record<string, unknown> } | undefined;
      if (tooMany) expect(tooMany.headers, name).to.have.property('Retry-After');
    }
  });

  it('documents webhook events as ["*"] alone or a list of event types, refusing what the service refuses', async () => {
    const documented = new Ajv2020({ strict: false }).compile(document.paths['/webhooks/create'].post.requestBody.content['application/json'].schema.properties.events);
    const admin = { authorization: `Bearer ${await api.token({ sub: 'events-admin', role: 'admin' })}` };
    const lists = [['*'], ['form.created'], ['form.created', 'comment.deleted'], ['*', '*'], ['form.created', 'form.created'], ['*', 'form.created'], ['form.created', '*'], [], ['nope'], 'form.created'];
    const verdicts = [];
    for (const events of lists) {
      const res = await api.call('POST', '/webhooks/create', { headers: admin, body: { url: 'https://203.0.113.10/hooks', events, enabled: false } });
      verdicts.push({ events, documented: documented(events), service: res.status === 201, message: res.body.message });
    }
    expect(verdicts.filter((v) => v.documented !== v.service)).to.deep.equal([]);
    expect(verdicts.find((v) => JSON.stringify(v.events) === '["*","form.created"]')?.message).to.equal('Validation failed: body.events must be ["*"] alone or a list of event types');
    expect(verdicts.filter((v) => v.service).map((v) => v.events), 'a repeated entry is kept once, not refused').to.deep.include(['form.created', 'form.created']);
  });

  it('says what a pattern asks for in words: no validation message shows a regular expression', async () => {
    const patterns = new Set<string>();
    const walk = (value: unknown) => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (typeof value !== 'object' || value === null) return;
      const schema = value as Record<string, unknown>;
      if (typeof schema.pattern === 'string') patterns.add(schema.pattern);
      Object.values(schema).forEach(walk);
    };
    const routes = api.service.container.getAll<readonly RouteDefinition[]>(RouteModuleToken).flat();
    for (const route of routes) [route.params, route.query, route.body].forEach(walk);
    expect(patterns.size).to.be.greaterThan(0);
    expect([...patterns].filter((pattern) => wordsForPattern(pattern) === undefined), 'patterns without words').to.deep.equal([]);

    const form = await createForm(api, 'words-only');
    const refusals = [
      await api.call('POST', '/forms/create', { body: { title: { en: 'T' }, slug: 'Not A Slug', sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }] }] } }),
      await api.call('POST', '/forms/create', { body: { title: { en: 'T' }, slug: 'ok-slug', sections: [{ fields: [{ name: '1a', type: 'text', label: { en: 'A' } }] }] } }),
      await api.call('POST', `/forms/submission/${form.id}/relations/x/connect`, { body: { relatedSubmissionId: 'xyz' } }),
    ];
    for (const res of refusals) {
      expect(res.status).to.equal(400);
      for (const pattern of patterns) expect(res.body.message).not.to.contain(pattern);
      expect(res.body.message).not.to.match(/must match (pattern|format)/);
    }
    expect(refusals.map((res) => res.body.message)).to.deep.equal([
      'Validation failed: body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)',
      'Validation failed: body.sections[0].fields[0].name must start with a letter and contain only letters, digits and underscores (at most 64 characters)',
      'Validation failed: body.relatedSubmissionId must be an id of 24 hexadecimal characters',
    ]);
  });
});
