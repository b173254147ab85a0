/**
 * A miniature of what Schemathesis does with a document's examples (issue 16 item 2): for every
 * operation in the served openapi.json, send the document's own example request and check that
 * the status is one the operation documents and the body matches that response's schema.
 * A first pass sends the examples as they are (their ids name no record, so reads answer their
 * documented 404); two more passes put in the ids of the latest records the passes before created
 * (a submission needs the form of pass 1), so reads, reactions and deletes reach their success
 * answers too. Deletes go last in each pass (children first) and are left out of the second, so
 * the third reads every record before it deletes it. A streamed answer (the CSV or NDJSON
 * export) is checked against its documented media type. Every header an answer carries beyond
 * HTTP's framing and §8's policy headers is declared on its response, and every declared required
 * one is sent. A success answer must hold what its
 * example sent: an example member the service drops (a slot's `range` beside its `settings`
 * instead of inside) shows nothing of what it suggests. The route list comes from the
 * document, so a route merged later is covered, and must bring its example.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { chatCompletion, FakeChatCompletionsServer } from '@cms/adapter-ai/testing';
import { headerProblems } from '../testing/documented-headers.js';
import { startTestService, type TestService } from '../testing/test-service.js';

type Json = Record<string, any>;
// ajv-formats ships CommonJS with a default export; under NodeNext it arrives one level deep.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
interface Sent {
  readonly name: string;
  readonly status: number;
  readonly problems: readonly string[];
}

/** Operations no single example can take to success, and why. */
const NO_SUCCESS_FROM_EXAMPLES: Readonly<Record<string, string>> = {
  connectSubmissionRelation: 'needs a form with a relation field to a second form and a submission of each',
  disconnectSubmissionRelation: 'needs a connected relation, which needs what connect needs',
};

/** Operations whose success answer is not the record their body describes, so it cannot show the body back. */
const ANSWER_IS_NOT_THE_BODY: Readonly<Record<string, string>> = {
  translateText: 'answers the translation of the text',
  setArticleReaction: 'answers the article’s totals',
  setCommentReaction: 'answers the comment’s reaction summary',
  connectSubmissionRelation: 'answers the submission, the related id under the field’s name',
  disconnectSubmissionRelation: 'answers the submission, the related id taken out',
};

const CREATED_KIND: Readonly<Record<string, string>> = {
  form: 'form',
  submission: 'submission',
  article: 'article',
  author: 'author',
  category: 'category',
  comment: 'comment',
  webhook: 'webhook',
};

/** The default languages; two that leave out English and French; one language alone. */
const LANGUAGE_SETTINGS: ReadonlyArray<string | undefined> = [undefined, 'de,es', 'ar'];

for (const languages of LANGUAGE_SETTINGS) describeExamples(languages);

function describeExamples(languages: string | undefined): void {
  describe(`Every operation’s documented example, sent and checked against the documented answer (CMS_LANGUAGES ${languages ?? 'unset'})`, () => {
    let api: TestService;
    let provider: FakeChatCompletionsServer;
    let document: Json;
    const created = new Map<string, string>();

    before(async () => {
      provider = await FakeChatCompletionsServer.start();
      provider.script = () => ({ json: chatCompletion('Bonjour, le monde', 5) });
      api = await startTestService({ AI_BASE_URL: provider.baseUrl, AI_MODEL: 'example-model', ...(languages ? { CMS_LANGUAGES: languages } : {}) });
      document = (await api.call('GET', '/openapi.json', { key: null })).body;
    });
    after(async () => {
      await api?.stop();
      await provider?.close();
    });

    /**
     * Every operation in document order, deletes last (so a pass reads what it deletes first), and
     * among deletes a comment's and a submission's before their parents' (whose cascade would take them).
     */
    const operations = (): Array<{ name: string; path: string; method: string; operation: Json }> =>
      Object.entries<Json>(document.paths)
        .flatMap(([path, item]) => Object.entries<Json>(item).map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, path, method, operation })))
        .sort((a, b) => deleteRank(a) - deleteRank(b));
    const deleteRank = ({ method, path }: { method: string; path: string }) => (method !== 'delete' ? 0 : /comments|submission/.test(path) ? 1 : 2);

    it('gives every required parameter and every request body an example', () => {
      const missing: string[] = [];
      for (const { name, operation } of operations()) {
        for (const parameter of operation.parameters ?? []) {
          if (parameter.$ref || parameter.example !== undefined) continue;
          if (parameter.required) missing.push(`${name} ${parameter.in} ${parameter.name}`);
        }
        if (operation.requestBody && operation.requestBody.content['application/json'].example === undefined) missing.push(`${name} body`);
      }
      expect(missing, 'parameters and bodies without an example: add one under the operationId in adapter-koa/src/openapi/operation-examples.ts').to.deep.equal([]);
    });

    it('answers each example with a documented status and a body that matches its schema, in three passes', async function () {
      this.timeout(30_000);
      const validators = responseValidators(document);
      const passes: Sent[][] = [];
      for (const pass of [1, 2, 3]) {
        const sent: Sent[] = [];
        for (const { name, path, method, operation } of operations()) {
          // Pass 2 keeps what it made, so pass 3 reads every record before deleting it.
          if (pass === 2 && method === 'delete') continue;
          const request = await exampleRequest(path, operation, pass > 1 ? created : undefined);
          const answer = await api.call(method.toUpperCase(), request.path, request.options);
          const problems = answerProblems(document, operation, answer, validators.get(`${operation.operationId} ${answer.status}`));
          sent.push({ name: `${name} (${operation.operationId})`, status: answer.status, problems });
          for (const [key, record] of Object.entries<Json>(answer.status < 300 ? (answer.body?.data ?? {}) : {})) {
            if (CREATED_KIND[key] && typeof record?.id === 'string' && method !== 'delete') created.set(key, record.id);
          }
        }
        passes.push(sent);
      }
      const wrong = passes.flat().filter((s) => s.problems.length > 0).map((s) => `${s.name} → ${s.status}: ${s.problems.join('; ')}`);
      expect(wrong).to.deep.equal([]);
      const succeeded = new Set(passes.flat().filter((s) => s.status < 300).map((s) => s.name.replace(/.*\((.+)\)$/, '$1')));
      const never = operations()
        .map(({ operation }) => operation.operationId as string)
        .filter((id) => !succeeded.has(id) && !(id in NO_SUCCESS_FROM_EXAMPLES));
      expect(
        never,
        'operations whose example never reached its success answer (give them one in adapter-koa/src/openapi/operation-examples.ts, or say why none can in NO_SUCCESS_FROM_EXAMPLES)',
      ).to.deep.equal([]);
      expect(passes[0]!.find((s) => s.name.includes('(createForm)'))?.status).to.equal(201);
    });

    /** The example request of one operation; with `ids`, path ids replaced by records made in earlier passes. */
    async function exampleRequest(path: string, operation: Json, ids: Map<string, string> | undefined) {
      const headers: Record<string, string> = {};
      const query = new URLSearchParams();
      let url = path;
      for (const parameter of operation.parameters ?? []) {
        if (parameter.$ref || parameter.example === undefined) continue;
        const value = String(parameter.in === 'path' && ids ? (ids.get(kindOf(path, parameter.name)) ?? parameter.example) : parameter.example);
        if (parameter.in === 'path') url = url.replace(`{${parameter.name}}`, encodeURIComponent(value));
        else if (parameter.in === 'query') query.set(parameter.name, value);
        else if (parameter.in === 'header') headers[parameter.name] = value;
      }
      const roles: string[] | undefined = operation['x-roles'];
      if (roles) headers.authorization = `Bearer ${await api.token({ sub: 'example-editor', role: roles[0] })}`;
      const body = operation.requestBody?.content['application/json'].example;
      const search = query.size ? `?${query}` : '';
      return { path: `${url}${search}`, options: { headers, ...(body === undefined ? {} : { body }) } };
    }
  });
}

/**
 * What is wrong with an answer: its status undocumented, its JSON off its schema, a member of the
 * example body a success answer does not hold, or another media type than documented.
 */
function answerProblems(document: Json, operation: Json, answer: { status: number; headers: Headers; body: unknown }, validate: ValidateFunction | undefined): string[] {
  const documented = operation.responses[String(answer.status)];
  if (!documented) return ['status not documented'];
  return [...headerProblems(document, documented, answer.headers), ...contentProblems(operation, documented, answer, validate)];
}

function contentProblems(operation: Json, documented: Json, answer: { status: number; headers: Headers; body: unknown }, validate: ValidateFunction | undefined): string[] {
  if (validate) {
    if (!validate(answer.body)) return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
    const example = operation.requestBody?.content['application/json'].example;
    if (answer.status >= 300 || example === undefined || operation.operationId in ANSWER_IS_NOT_THE_BODY) return [];
    return droppedMembers(example, answeredRecord((answer.body as Json).data)).map((path) => `${path} was sent but is not in the answer`);
  }
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!;
  const types = Object.keys(documented.content ?? {});
  return types.length === 0 || types.includes(type) ? [] : [`content type ${type} not among ${types.join(', ')}`];
}

/** The record a success answer holds: `data`'s one member (`data.dashboardConfig`, `data.form`), else `data` itself (the repurpose template). */
function answeredRecord(data: unknown): unknown {
  const members = typeof data === 'object' && data !== null ? Object.values(data) : [];
  return members.length === 1 && typeof members[0] === 'object' ? members[0] : data;
}

/** The paths of the members of `sent` that `answered` does not hold with the same value (arrays item by item). */
function droppedMembers(sent: unknown, answered: unknown, at = 'body'): string[] {
  if (typeof sent !== 'object' || sent === null) return sent === answered ? [] : [at];
  if (typeof answered !== 'object' || answered === null || Array.isArray(sent) !== Array.isArray(answered)) return [at];
  if (Array.isArray(sent)) return sent.flatMap((item, i) => droppedMembers(item, (answered as unknown[])[i], `${at}[${i}]`));
  return Object.entries(sent).flatMap(([key, value]) =>
    Object.hasOwn(answered, key) ? droppedMembers(value, (answered as Json)[key], `${at}.${key}`) : [`${at}.${key}`],
  );
}

/** Which record a path parameter names: `commentId` a comment; `id` the resource the path is under. */
function kindOf(path: string, parameter: string): string {
  if (parameter === 'commentId') return 'comment';
  if (path.startsWith('/forms/submission/')) return 'submission';
  const collection = path.split('/')[1]!;
  return collection === 'categories' ? 'category' : collection.replace(/s$/, '');
}

/** One validator per (operationId, status), with the document's components resolvable. */
function responseValidators(document: Json): Map<string, ValidateFunction> {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const validators = new Map<string, ValidateFunction>();
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) {
      for (const [status, response] of Object.entries<Json>(operation.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (!schema) continue;
        const rebased = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
        validators.set(`${operation.operationId} ${status}`, ajv.compile(rebased));
      }
    }
  }
  return validators;
}
