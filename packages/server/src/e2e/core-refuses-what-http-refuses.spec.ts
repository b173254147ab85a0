/**
 * Core is the authority on its own rules (issue 22 item 1): every invalid request of the HTTP
 * suites, handed straight to its use case with no JSON Schema in front, is refused by core with
 * the code HTTP answers (`VALIDATION_FAILED`, 400 `Validation failed: …`), naming the same place:
 * core's domain path is HTTP's without `body.` (`sections[0].fields[1].type`).
 */
import { expect } from 'chai';
import {
  createCore,
  ErrorCodes,
  isDomainError,
  MemoryAiUsageLedger,
  MemoryTenantRepository,
  StaticLanguageCatalog,
  systemClock,
  TranslateText,
  UnconfiguredTranslationProvider,
  type CaptchaVerifier,
  type DomainError,
} from '@cms/core';
import { anonymousCaller, userCaller } from '@cms/core/testing';
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

const NO_CAPTCHA: CaptchaVerifier = { verify: async () => ({ success: false }) };
const UNKNOWN_ID = '0123456789abcdef01234567';

/** The refusal of `run`, which must be a domain error (never a TypeError nor a success). */
async function refusalOf(run: () => Promise<unknown>): Promise<DomainError> {
  const outcome = await run().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) expect.fail(`core accepted it: ${JSON.stringify(outcome.value)}`);
  expect(isDomainError(outcome.error), `not a domain error: ${String(outcome.error)}`).to.equal(true);
  return outcome.error as DomainError;
}

/** The HTTP path of core's first issue: `title` → `body.title`, `''` → `body`; `bodyAt` is the input property holding the body. */
function httpPathOf(error: DomainError, bodyAt?: string): string {
  let path = error.issues[0]?.path ?? '';
  if (bodyAt !== undefined && (path === bodyAt || path.startsWith(`${bodyAt}.`))) path = path.slice(bodyAt.length + 1);
  return path === '' ? 'body' : `body.${path}`;
}

/** The path an HTTP message names: `Validation failed: body.title must …` → `body.title`. */
const pathInMessage = (message: string) => message.replace(/^Validation failed: /, '').split(' ')[0]!;

async function expectSameRefusal(run: () => Promise<unknown>, httpPath: string, bodyAt?: string): Promise<void> {
  const error = await refusalOf(run);
  expect(error.code).to.equal(ErrorCodes.VALIDATION_FAILED);
  expect(httpPathOf(error, bodyAt), error.message).to.equal(httpPath);
  expect(error.message).to.not.match(/\bbody\b/); // domain words, not HTTP ones
}

describe('Core refuses what the HTTP suites refuse, with the same code and place', () => {
  const core = createCore({ captcha: NO_CAPTCHA });
  const caller = anonymousCaller('acme');
  const user = userCaller('acme', 'agreement-user', 'admin');

  describe('CreateForm', () => {
    for (const [name, body, path] of CREATE_FORM_UNKNOWN_PROPERTIES) {
      it(`refuses a property ${name}`, () => expectSameRefusal(() => core.forms.create.execute(caller, body as never), path));
    }
    for (const [name, body, message] of CREATE_FORM_WRONG_SHAPES) {
      it(`refuses ${name}`, () => expectSameRefusal(() => core.forms.create.execute(caller, body as never), pathInMessage(message)));
    }
  });

  describe('UpdateForm', () => {
    it('refuses every invalid patch of the HTTP suite', async () => {
      const form = await core.forms.create.execute(caller, formBody('agreement-update') as never);
      for (const [body, message] of formUpdateRefusals(form.id)) {
        await expectSameRefusal(() => core.forms.update.execute(caller, { id: form.id, changes: body }), pathInMessage(message));
      }
    });
  });

  describe('CreateAuthor and CreateCategory', () => {
    for (const [name, body, message] of AUTHOR_REFUSALS) {
      it(`refuses an author with ${name}`, () => expectSameRefusal(() => core.authors.create.execute(user, body as never), pathInMessage(message)));
    }
    for (const [body, message] of CATEGORY_REFUSALS) {
      it(`refuses the category ${JSON.stringify(body)}`, () => expectSameRefusal(() => core.articles.createCategory.execute(user, body as never), pathInMessage(message)));
    }
  });

  describe('SaveDashboardConfig', () => {
    for (const [name, body, message] of DASHBOARD_REFUSALS) {
      it(`refuses ${name}`, () => expectSameRefusal(() => core.dashboard.save.execute(user, { config: body as never }), pathInMessage(message)));
    }
  });

  describe('UpdateRepurposeTemplate', () => {
    const templates = createCore({ captcha: NO_CAPTCHA, languages: new StaticLanguageCatalog(['en', 'fr']) }).repurpose;
    for (const [name, body, message] of TEMPLATE_REFUSALS) {
      it(`refuses ${name}`, () => expectSameRefusal(() => templates.update.execute(user, { changes: body as never }), pathInMessage(message)));
    }
  });

  describe('TranslateText', () => {
    const translate = new TranslateText(
      new UnconfiguredTranslationProvider(),
      new MemoryAiUsageLedger(),
      new MemoryTenantRepository(),
      new StaticLanguageCatalog(['en', 'fr', 'de']),
      { defaultMonthlyTokenLimit: 1000 },
      systemClock,
    );
    for (const [name, body, message] of TRANSLATE_REFUSALS) {
      // Refused before the provider is asked: unconfigured, it would answer AI_NOT_CONFIGURED.
      it(`refuses ${name}`, () => expectSameRefusal(() => translate.execute(anonymousCaller('acme'), body as never), pathInMessage(message)));
    }
  });

  describe('ReactToArticle and ReactToComment', () => {
    for (const [body, message] of REACTION_REFUSALS) {
      // The HTTP row `null` is a request without a body: the use case gets no choice at all.
      const reaction = (body === null ? undefined : body) as never;
      it(`refuses the body ${JSON.stringify(body)}`, async () => {
        await expectSameRefusal(() => core.articles.react.execute(user, { articleId: UNKNOWN_ID, reaction }), pathInMessage(message), 'reaction');
        await expectSameRefusal(() => core.comments.react.execute(user, { commentId: UNKNOWN_ID, reaction }), pathInMessage(message), 'reaction');
      });
    }
  });
});
