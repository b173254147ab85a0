/**
 * The document refuses what the service refuses (issue 16 item 2, "an interface description a
 * generator can trust"): every invalid body of the HTTP suites (`invalid-inputs.ts`), checked by
 * an independent validator against the request body schema the served `openapi.json` gives its
 * operation, must be invalid there too. A body the document accepts and the service refuses is
 * what a schema-driven fuzzer (Schemathesis's "positive data acceptance") reports, and what a
 * generated form lets a user type only to be refused. The few rules JSON Schema cannot say (one
 * member against another, a record's own id) are named below with the words of their refusal.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { formBody } from './form-requests.js';
import {
  AUTHOR_REFUSALS,
  CATEGORY_REFUSALS,
  CREATE_FORM_UNKNOWN_PROPERTIES,
  CREATE_FORM_WRONG_SHAPES,
  DASHBOARD_REFUSALS,
  formUpdateRefusals,
  REACTION_REFUSALS,
  TEMPLATE_REFUSALS,
  TRANSLATE_REFUSALS,
} from './invalid-inputs.js';
import { engagementClient } from '../testing/engagement-client.js';
import { startTestService, type TestService } from '../testing/test-service.js';

type Json = Record<string, any>;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** Refusals JSON Schema cannot express, by the words of the service's message or the row's name. */
const BEYOND_A_SCHEMA: Readonly<Record<string, string>> = {
  'duplicates the slot id': 'unique by one member of each item (JSON Schema has uniqueItems of whole items only)',
  'must not name the form itself': 'compares the body with the id in the path',
  'an avatar URL that does not parse': 'the WHATWG URL parser decides (a port over 65535, a malformed host); the pattern says how it is written',
};

interface Case {
  readonly operation: string;
  readonly name: string;
  readonly body: unknown;
  readonly message: string;
}

/** The request body validators of `api`'s served document, by operationId. */
async function bodyValidators(api: TestService): Promise<Map<string, ValidateFunction>> {
  const document: Json = (await api.call('GET', '/openapi.json', { key: null })).body;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const validators = new Map<string, ValidateFunction>();
  for (const item of Object.values<Json>(document.paths)) {
    for (const operation of Object.values<Json>(item)) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      validators.set(operation.operationId, ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))));
    }
  }
  return validators;
}

/** Runs `use` with a service started with `languages` and the body validators of the document it serves. */
async function withValidators<T>(languages: string, use: (validators: Map<string, ValidateFunction>, api: TestService) => Promise<T>): Promise<T> {
  const api = await startTestService({ CMS_LANGUAGES: languages });
  try {
    return await use(await bodyValidators(api), api);
  } finally {
    await api.stop();
  }
}

/** The cases of one language setting: the suites' rows with the operation they are sent to. */
const CASES: ReadonlyArray<{ readonly languages: string; readonly cases: () => Case[] }> = [
  {
    // The forms and engagement suites' tenant languages.
    languages: 'en,ar,fr,es,de',
    cases: () => [
      ...CREATE_FORM_UNKNOWN_PROPERTIES.map(([name, body, message]) => ({ operation: 'createForm', name, body, message })),
      ...CREATE_FORM_WRONG_SHAPES.map(([name, body, message]) => ({ operation: 'createForm', name, body, message })),
      ...formUpdateRefusals('0123456789abcdef01234567').map(([body, message]) => ({ operation: 'updateForm', name: JSON.stringify(body), body, message })),
      ...AUTHOR_REFUSALS.map(([name, body, message]) => ({ operation: 'createAuthor', name, body, message })),
      ...CATEGORY_REFUSALS.map(([body, message]) => ({ operation: 'createCategory', name: JSON.stringify(body), body, message })),
      ...DASHBOARD_REFUSALS.map(([name, body, message]) => ({ operation: 'saveDashboardConfig', name, body, message })),
      // `null` is a request without a body: no schema speaks of it (the operation requires one).
      ...REACTION_REFUSALS.filter(([body]) => body !== null).flatMap(([body, message]) =>
        ['setArticleReaction', 'setCommentReaction'].map((operation) => ({ operation, name: JSON.stringify(body), body, message })),
      ),
    ],
  },
  { languages: 'en,fr', cases: () => TEMPLATE_REFUSALS.map(([name, body, message]) => ({ operation: 'updateRepurposeTemplate', name, body, message })) },
  {
    languages: 'en,fr,de',
    // `undefined` is a request without a body, as above.
    cases: () => TRANSLATE_REFUSALS.filter(([, body]) => body !== undefined).map(([name, body, message]) => ({ operation: 'translateText', name, body, message })),
  },
];

describe('The document refuses every body the service refuses', function () {
  this.timeout(20_000);

  for (const { languages, cases } of CASES) {
    it(`for the suites' invalid bodies (CMS_LANGUAGES ${languages})`, () =>
      withValidators(languages, async (validators) => {
        const accepted: string[] = [];
        let checked = 0;
        for (const { operation, name, body, message } of cases()) {
          const validate = validators.get(operation);
          expect(validate, `${operation} documents no JSON body`).to.not.equal(undefined);
          const beyond = Object.keys(BEYOND_A_SCHEMA).find((words) => message.includes(words) || name.includes(words));
          if (beyond) {
            expect(validate!(body), `${operation} ${name}: the document now refuses it, so take "${beyond}" off BEYOND_A_SCHEMA`).to.equal(true);
            continue;
          }
          checked++;
          if (validate!(body)) accepted.push(`${operation} ${name} (the service: ${message})`);
        }
        expect(accepted, 'bodies the document accepts and the service refuses').to.deep.equal([]);
        expect(checked).to.be.greaterThan(5);
      }));
  }

  it('refuses the texts the service refuses as blank, on every operation that takes one, and the service does too', () =>
    withValidators('en,fr', async (validators, api) => {
      const client = engagementClient(api);
      const admin = await client.bearer('admin');
      const article = await client.article({ title: 'Conformance' });
      const author = (await api.call('POST', '/authors/create', { headers: admin, body: { name: 'Ada' } })).body.data.author;
      const form = formBody('blank-texts') as { sections: Array<{ fields: object[] }> };
      const field = form.sections[0]!.fields[0]!;
      const rows: Array<[string, string, string, unknown, string]> = [
        ['createArticle', 'POST', '/articles/create', { title: ' \t' }, 'body.title must not be blank'],
        ['updateArticle', 'PATCH', `/articles/update/${article.id}`, { title: '\u00a0' }, 'body.title must not be blank'],
        ['createComment', 'POST', `/articles/${article.id}/comments`, { content: '\n' }, 'body.content must not be blank'],
        ['createComment', 'POST', `/articles/${article.id}/comments`, { content: 'Hi', authorName: '  ' }, 'body.authorName must not be blank'],
        ['createWebhook', 'POST', '/webhooks/create', { url: 'https://hooks.example.com/a', events: ['*'], description: ' ' }, 'body.description must not be blank'],
        ['createWebhook', 'POST', '/webhooks/create', { url: 'https://hooks.example.com/a', events: ['*'], description: '' }, 'body.description must NOT have fewer than 1 characters'],
        ['createForm', 'POST', '/forms/create', { ...form, title: { en: '\u2003' } }, 'body.title.en must not be blank'],
        ['createForm', 'POST', '/forms/create', { ...form, sections: [{ fields: [{ ...field, label: { fr: ' ' } }] }] }, 'body.sections[0].fields[0].label.fr must not be blank'],
        ['updateAuthor', 'PATCH', `/authors/update/${author.id}`, { email: 'ada@example' }, 'body.email must be an e-mail address'],
        ['updateAuthor', 'PATCH', `/authors/update/${author.id}`, { avatarUrl: 'https:\\\\example.org\\a.png' }, 'body.avatarUrl must be an absolute http(s) URL'],
        ['translateText', 'POST', '/ai/translate', { text: '\u3000', targetLanguage: 'fr' }, 'body.text must not be blank'],
      ];
      const problems: string[] = [];
      for (const [operation, method, path, body, message] of rows) {
        if (validators.get(operation)!(body)) problems.push(`${operation} ${JSON.stringify(body)}: the document accepts it`);
        const answer = await api.call(method, path, { headers: admin, body });
        if (answer.status !== 400 || answer.body?.message !== `Validation failed: ${message}`) {
          problems.push(`${method} ${path} ${JSON.stringify(body)}: the service answered ${answer.status} ${answer.body?.message}`);
        }
      }
      expect(problems).to.deep.equal([]);
    }));

  it('accepts what the service accepts: text around an address or URL, and a blank bio (the check can say yes)', () =>
    withValidators('en,ar,fr,es,de', async (validators, api) => {
      const admin = await engagementClient(api).bearer('admin');
      const author = { name: ' Ada ', email: ' ada@example.org\n', avatarUrl: '\thttps://example.org/ada.png ', bio: '  ' };
      const valid: Array<[string, unknown]> = [
        ['createForm', formBody('conformance')],
        ['createAuthor', author],
        ['createCategory', { name: 'News' }],
        ['setArticleReaction', { type: 'like' }],
        ['createWebhook', { url: 'https://hooks.example.com/a', events: ['*'], description: 'Ops' }],
      ];
      for (const [operation, body] of valid) expect(validators.get(operation)!(body), `${operation} ${JSON.stringify(validators.get(operation)!.errors)}`).to.equal(true);
      const created = await api.call('POST', '/authors/create', { headers: admin, body: author });
      expect(created.status).to.equal(201);
      expect(created.body.data.author).to.include({ name: 'Ada', email: 'ada@example.org', avatarUrl: 'https://example.org/ada.png', bio: '  ' });
    }));
});
