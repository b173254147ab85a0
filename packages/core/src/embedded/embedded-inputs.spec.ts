/**
 * What embedding code may hand the use cases `createCore` builds, found by fuzzing them (decision
 * 0801): a caller or an input that is not an object, a mode or an `If-Match` of the wrong kind, a caller
 * built by hand with a `verified` that is not `true`, a tenant id that is not a string. Each is a
 * `DomainError` naming what is wrong, never a `TypeError`, and none of them stores anything.
 */
import { expect } from 'chai';
import { runInNewContext } from 'node:vm';
import { StaticCaptchaVerifier } from '../captcha/captcha.ports.js';
import { createCore } from './create-core.js';
import { memoryStores } from './core-stores.js';
import { ErrorCodes } from '../shared/error-codes.js';
import { validationError } from '../shared/domain-error.js';
import { anonymousCaller, guestCaller, userCaller } from '../testing/callers.js';
import { domainErrorOf } from '../testing/expect-domain-error.js';
import type { Caller } from '../shared/caller.js';
import type { WebhookSender } from '../webhooks/webhooks.ports.js';
import { entityTag } from '../shared/entity-tag.js';
import { GetAiUsage } from '../ai/get-ai-usage.use-case.js';
import { TranslateText } from '../ai/translate-text.use-case.js';
import { MemoryAiUsageLedger } from '../memory/memory-ai-usage-ledger.js';
import { StaticLanguageCatalog } from '../shared/languages.js';

const editor = userCaller('acme', 'ed-1', 'editor');
const setup = () => createCore({ captcha: new StaticCaptchaVerifier() });
const oneField = { sections: [{ fields: [{ name: 'a', type: 'text' as const, label: { en: 'A' } }] }] };

describe('Inputs embedding code hands the core', () => {
  it('refuses an input that is not an object with VALIDATION_FAILED for the whole input, in every use case that takes one', async () => {
    const core = setup();
    const groups = { forms: core.forms, authors: core.authors, articles: core.articles, comments: core.comments, dashboard: core.dashboard, repurpose: core.repurpose };
    let checked = 0;
    for (const [groupName, group] of Object.entries(groups)) {
      for (const [name, useCase] of Object.entries(group)) {
        const execute = (useCase as { execute: (caller: Caller, input?: unknown) => Promise<unknown> }).execute.bind(useCase);
        for (const input of [null, 42, 'x', [], true]) {
          const refusal = await domainErrorOf(execute(editor, input));
          expect([refusal.code, refusal.issues?.[0]?.path], `${groupName}.${name}(${JSON.stringify(input)})`).to.deep.equal([ErrorCodes.VALIDATION_FAILED, '']);
        }
        checked += 1;
      }
    }
    expect(checked).to.be.above(30);
    expect((await core.dashboard.get.execute(userCaller('acme', 'u1'))).slots).to.be.an('array'); // a use case that takes no input still works
  });

  it('refuses a caller that is not an object with VALIDATION_FAILED at caller, before the input, in every use case', async () => {
    const core = setup();
    const groups = { forms: core.forms, authors: core.authors, articles: core.articles, comments: core.comments, dashboard: core.dashboard, repurpose: core.repurpose, guests: core.guests };
    let checked = 0;
    for (const [groupName, group] of Object.entries(groups)) {
      for (const [name, useCase] of Object.entries(group)) {
        const execute = (useCase as { execute: (caller: unknown, input?: unknown) => Promise<unknown> }).execute.bind(useCase);
        // A bad input beside it too: the caller is looked at first.
        for (const caller of [null, undefined, 42, 'acme']) {
          const refusal = await domainErrorOf(execute(caller, null));
          expect([refusal.code, refusal.issues?.[0]?.path], `${groupName}.${name}(${String(caller)})`).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'caller']);
        }
        checked += 1;
      }
    }
    expect(checked).to.be.above(30);
    expect(await core.forms.list.execute(userCaller('acme', 'u1'), {})).to.have.property('forms').that.is.an('array'); // a caller that is one still passes
  });

  it('refuses a submit mode other than public or internal, so no name off the prototype chain passes the caller unchecked', async () => {
    const core = setup();
    const form = await core.forms.create.execute(editor, { title: { en: 'I' }, slug: 'internal', visibility: 'internal', captcha: { enabled: true }, ...oneField });
    for (const mode of ['constructor', 'toString', '__proto__', 'bogus', undefined]) {
      const refusal = await domainErrorOf(core.forms.submit.execute(anonymousCaller('acme'), { formId: form.id, submission: { values: { a: 'x' } }, mode } as never));
      expect([refusal.code, refusal.issues?.[0]?.path], String(mode)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'mode']);
    }
    expect((await core.forms.listSubmissions.execute(editor, { formId: form.id })).submissions).to.deep.equal([]);
  });

  it('takes a null If-Match as absent and refuses one that is not a string', async () => {
    const core = setup();
    const author = await core.authors.create.execute(editor, { name: 'Ada' });
    const renamed = await core.authors.update.execute(editor, { id: author.id, changes: { name: 'Ada L.' }, ifMatch: null as never });
    expect(renamed.name).to.equal('Ada L.');
    for (const ifMatch of [42, {}, ['"x"']]) {
      const refusal = await domainErrorOf(core.authors.remove.execute(editor, { id: author.id, ifMatch: ifMatch as never }));
      expect([refusal.code, refusal.issues?.[0]?.path], JSON.stringify(ifMatch)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'ifMatch']);
    }
    expect((await core.authors.get.execute(editor, { id: author.id })).name).to.equal('Ada L.');
  });

  it('takes only verified: true as a proven user', async () => {
    const core = setup();
    for (const verified of ['false', 1, 'true']) {
      const caller = { ...editor, user: { ...editor.user!, verified: verified as never } };
      expect((await domainErrorOf(core.authors.create.execute(caller, { name: 'Ada' }))).code, String(verified)).to.equal(ErrorCodes.UNAUTHORIZED);
    }
    expect((await core.authors.list.execute(editor, {})).authors).to.deep.equal([]);
    const article = await core.articles.create.execute(editor, { title: 'Moderated' });
    await core.comments.create.execute(userCaller('acme', 'reader-1', 'member'), { articleId: article.id, comment: { content: 'Waiting for a moderator.' } });
    for (const verified of ['false', 1, 'true']) {
      const caller = { ...editor, user: { ...editor.user!, verified: verified as never } };
      const refusal = await domainErrorOf(core.comments.list.execute(caller, { articleId: article.id, status: 'pending' }));
      expect(refusal.code, `pending comments, verified ${String(verified)}`).to.equal(ErrorCodes.FORBIDDEN);
    }
    expect((await core.comments.list.execute(editor, { articleId: article.id, status: 'pending' })).comments).to.have.length(1);
  });

  it('holds caller ids to the rules of HTTP headers and tokens: a bad user id is no user, a bad guest id no guest id', async () => {
    const core = createCore({ captcha: new StaticCaptchaVerifier(new Map([['token', undefined]])) });
    const article = await core.articles.create.execute(editor, { title: 'Reactions' });
    for (const id of ['', 'has spaces', 'x'.repeat(129), 'slash/in', 42]) {
      const member = { ...userCaller('acme', 'u1', 'member', false), user: { id: id as never, role: 'member' as const, verified: false } };
      expect((await domainErrorOf(core.dashboard.save.execute(member, { config: {} }))).code, `user ${String(id)}`).to.equal(ErrorCodes.MISSING_USER_ID);
      const proven = { ...editor, user: { ...editor.user!, id: id as never } };
      expect((await domainErrorOf(core.authors.create.execute(proven, { name: 'Ada' }))).code, `verified user ${String(id)}`).to.equal(ErrorCodes.UNAUTHORIZED);
    }
    for (const id of ['x', 'short', 'has spaces and/slashes?', 'g'.repeat(129), 42]) {
      const guest = guestCaller('acme', id as never);
      expect((await domainErrorOf(core.articles.react.execute(guest, { articleId: article.id, reaction: { type: 'like' } }))).code, `guest ${String(id)}`).to.equal(ErrorCodes.GUEST_ID_MISSING);
      expect((await domainErrorOf(core.guests.admit.execute(guest))).code, `admit guest ${String(id)}`).to.equal(ErrorCodes.GUEST_ID_MISSING);
    }
    expect((await core.articles.get.execute(editor, { id: article.id })).likes).to.equal(0);
    expect((await core.authors.list.execute(editor, {})).authors).to.deep.equal([]);
    const liked = await core.articles.react.execute(guestCaller('acme', 'guest-0001'), { articleId: article.id, reaction: { type: 'like' } });
    expect(liked.likes).to.equal(1);
  });

  it('refuses text that is not well-formed Unicode where it is, as HTTP does, a deferred member once read, storing nothing', async () => {
    const core = createCore({ captcha: new StaticCaptchaVerifier(new Map([['token', undefined]])) });
    const refusal = async (promise: Promise<unknown>) => {
      const error = await domainErrorOf(promise);
      return [error.code, error.issues?.[0]?.path, error.issues?.[0]?.message];
    };
    const words = 'is not well-formed Unicode text (it holds a lone surrogate)';
    expect(await refusal(core.authors.create.execute(editor, { name: 'A\uD800' }))).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'name', words]);
    const config = { slots: [{ id: 'a', type: 'topArticles' }, { id: 'b', type: 'contentTrend', settings: { ['k\uDBFF']: 1 } }] };
    expect(await refusal(core.dashboard.save.execute(userCaller('acme', 'u1'), { config: config as never }))).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'config.slots[1].settings.k\\udbff', words]);
    const article = await core.articles.create.execute(editor, { title: 'Comments' });
    const deferred = core.comments.create.execute(guestCaller('acme', 'guest-0001'), { articleId: article.id, comment: async () => ({ content: 'x\uDFFF' }) });
    expect(await refusal(deferred)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'comment.content', words]);
    expect((await core.authors.list.execute(editor, {})).authors).to.deep.equal([]);
    expect((await core.comments.list.execute(editor, { articleId: article.id, status: 'all' })).comments).to.deep.equal([]);
    expect((await core.dashboard.get.execute(userCaller('acme', 'u1'))).slots.map((slot) => slot.id)).to.not.include('a');
    const circular: Record<string, unknown> = { name: 'Ada' };
    circular.self = circular;
    expect((await domainErrorOf(core.authors.create.execute(editor, circular as never))).code, 'a circular input ends').to.equal(ErrorCodes.VALIDATION_FAILED);
  });

  it('runs an update’s own shape check with its body, and a refusal from it refuses the update, storing nothing', async () => {
    const core = setup();
    const article = await core.articles.create.execute(editor, { title: 'Kept' });
    const refuseAll = (body: unknown) => {
      throw validationError('changes', `refused ${JSON.stringify(body)}`);
    };
    const refusal = await domainErrorOf(core.articles.update.execute(editor, { id: article.id, changes: { title: 'Changed' }, checkShape: refuseAll }));
    expect([refusal.code, refusal.issues?.[0]?.message]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'refused {"title":"Changed"}']);
    expect((await core.articles.get.execute(editor, { id: article.id })).title).to.equal('Kept');
    const member = userCaller('acme', 'u1');
    const config = { slots: [{ id: 'a', type: 'topArticles' as const }] };
    expect((await domainErrorOf(core.dashboard.save.execute(member, { config, checkShape: refuseAll }))).code).to.equal(ErrorCodes.VALIDATION_FAILED);
    expect((await core.dashboard.get.execute(member)).slots.map((slot) => slot.id)).to.not.include('a');
    let checked: unknown;
    const saved = await core.dashboard.save.execute(member, { config, checkShape: (body) => void (checked = body) });
    expect([checked, saved.slots.map((slot) => slot.id)]).to.deep.equal([config, ['a']]);
  });

  it('refuses, by name, a store that is missing and a missing CAPTCHA verifier, before anything runs', () => {
    const captcha = new StaticCaptchaVerifier();
    const { outbox: _outbox, guestLimiter: _limiter, ...partial } = memoryStores();
    expect(() => createCore({ captcha, stores: partial as never })).to.throw(TypeError, 'createCore: stores.outbox, stores.guestLimiter missing');
    expect(() => createCore({} as never)).to.throw(TypeError, 'createCore: options.captcha is required');
    expect(() => createCore(undefined as never)).to.throw(TypeError, 'createCore: options must be an object');
  });

  it('takes an option member given as undefined or null as left out, and webhooks: false as off', async () => {
    const captcha = new StaticCaptchaVerifier(new Map([['token', undefined]]));
    const core = createCore({ captcha, captchaProvider: null as never, guestPolicy: { limit: undefined, windowSeconds: 60 }, webhooks: false as never });
    expect(core.webhooks).to.equal(undefined);
    const article = await core.articles.create.execute(editor, { title: 'Open' });
    const guest = { tenantId: 'acme', user: undefined, guest: { id: 'guest-0001', captchaToken: 'token' } };
    for (let i = 0; i < 30; i += 1) await core.articles.react.execute(guest, { articleId: article.id, reaction: { type: i % 2 === 0 ? 'like' : 'dislike' } });
    expect((await domainErrorOf(core.articles.react.execute(guest, { articleId: article.id, reaction: { type: 'like' } }))).code).to.equal(ErrorCodes.GUEST_RATE_LIMITED);
  });

  it('checks what a deferred member answers also when it is a promise of another realm', async () => {
    const core = createCore({ captcha: new StaticCaptchaVerifier(new Map([['token', undefined]])) });
    const article = await core.articles.create.execute(editor, { title: 'Comments' });
    const foreign = runInNewContext('(value) => Promise.resolve(value)') as (value: unknown) => Promise<unknown>;
    const refusal = await domainErrorOf(core.comments.create.execute(guestCaller('acme', 'guest-0001'), { articleId: article.id, comment: () => foreign({ content: 'bad \uD800 text' }) as never }));
    expect([refusal.code, refusal.issues?.[0]?.path]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'comment.content']);
  });

  it('refuses, by name, an option in a shape that would fail later, after state changed', () => {
    const captcha = new StaticCaptchaVerifier();
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ captchaProvider: 'recapcha' }, 'createCore: options.captchaProvider must be one of recaptcha, hcaptcha, turnstile, none'],
      [{ webhooks: {} }, 'createCore: options.webhooks needs a sender (WebhookSender) and a urlGuard'],
      [{ webhooks: true }, 'createCore: options.webhooks needs a sender'],
      [{ webhooks: { sender: { send: async () => ({ status: 200 }) } } }, 'createCore: options.webhooks needs a sender'],
      [{ webhooks: { urlGuard: { isAllowed: async () => true } } }, 'createCore: options.webhooks needs a sender'],
      [{ backgroundWork: {} }, 'createCore: options.backgroundWork must be a BackgroundWork'],
      [{ cursorSecret: 42 }, 'createCore: options.cursorSecret must be a text that is not empty'],
      [{ guestPolicy: { limit: Number(undefined) } }, "createCore: the guest policy's limit must be a whole number of at least 1"],
      [{ guestPolicy: { windowSeconds: 0 } }, "createCore: the guest policy's windowSeconds must be a whole number of at least 1"],
      [{ guestPolicy: { minCaptchaScore: 1.5 } }, "createCore: the guest policy's minCaptchaScore must be a number from 0 to 1"],
    ];
    for (const [options, message] of refusals) expect(() => createCore({ captcha, ...options } as never), JSON.stringify(options)).to.throw(TypeError, message);
    expect(() => createCore({ captcha, captchaProvider: 'none', guestPolicy: { limit: 1, windowSeconds: 1, minCaptchaScore: 0 }, webhooks: null as never })).not.to.throw();
  });

  it('refuses a tenant id that is not a string, an admin address that is not one and a name that is not well-formed text, storing none of them', async () => {
    const core = setup();
    for (const id of [undefined, null, 123]) {
      const refusal = await domainErrorOf(core.tenancy.manage.createTenant(id as never));
      expect([refusal.code, refusal.issues?.[0]?.path], String(id)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'tenantId']);
      expect((await domainErrorOf(core.tenancy.manage.issueKey(id as never))).code).to.equal(ErrorCodes.TENANT_NOT_FOUND);
    }
    expect((await domainErrorOf(core.tenancy.manage.createTenant('t1', 42 as never))).issues?.[0]?.path).to.equal('name');
    await core.tenancy.manage.createTenant('t1');
    for (const emails of [[{ toString: () => 'a@b.cd' }], [undefined, 'ops@acme.example'], ['a\uD800@b.example'], ['boss@example.org,root'], ['Boss<evil@attacker.test>'], ['x;postmaster@b.cd']]) {
      expect((await domainErrorOf(core.tenancy.manage.setAdminEmails('t1', emails as never))).issues?.[0]?.path, String(emails[0])).to.equal('emails');
    }
    expect((await core.stores.tenants.findById('t1'))?.adminEmails).to.deep.equal([]);
    for (const name of ['bad \uD800 name', '\uDC00']) {
      expect((await domainErrorOf(core.tenancy.manage.createTenant('t2', name))).issues?.[0], name).to.deep.equal({ path: 'name', message: 'is not well-formed Unicode text (it holds a lone surrogate)' });
      expect((await domainErrorOf(core.tenancy.manage.issueKey('t1', name))).issues?.[0]?.path, name).to.equal('name');
    }
    expect((await domainErrorOf(core.tenancy.manage.registerKey('t1', 42 as never))).issues?.[0]?.path).to.equal('key');
  });

  it('refuses form recipients that a mail library would read as other or more recipients, as HTTP does', async () => {
    const core = setup();
    for (const address of ['boss@example.org,root', 'Boss<evil@attacker.test>', 'x;postmaster@b.cd', 'a b@c.de']) {
      const notifications = { enabled: true, email: { admin: { enabled: true, recipients: ['ok@acme.example', address] } } };
      const refusal = await domainErrorOf(core.forms.create.execute(editor, { ...oneField, title: { en: 'T' }, slug: 'mailed', notifications } as never));
      expect([refusal.code, refusal.issues?.[0]], address).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path: 'notifications.email.admin.recipients[1]', message: 'must be an e-mail address' }]);
    }
    expect((await core.forms.list.execute(editor, {})).forms).to.deep.equal([]);
  });

  it('checks the tenant id of a disconnect first, as a connect does', async () => {
    const core = setup();
    const caller = { ...editor, tenantId: 'Acme!' };
    const input = { submissionId: 'a'.repeat(24), fieldName: 'f', relatedSubmissionId: 'b'.repeat(24) };
    for (const useCase of [core.forms.connectRelation, core.forms.disconnectRelation]) {
      expect((await domainErrorOf(useCase.execute(caller, input))).issues?.[0]?.path).to.equal('tenantId');
    }
  });

  it('refuses a tenant id that is not one on the read that stores a default template, storing none', async () => {
    const core = setup();
    for (const tenantId of ['Acme!', undefined, 123, '']) {
      const refusal = await domainErrorOf(core.repurpose.get.execute({ ...editor, tenantId } as never));
      expect([refusal.code, refusal.issues?.[0]?.path], String(tenantId)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'tenantId']);
      expect(await core.stores.repurposeTemplates.find(tenantId as never), String(tenantId)).to.equal(null);
    }
  });

  it('refuses a tenant id that is not one when admitting a guest, counting no hit under it', async () => {
    const core = createCore({ captcha: new StaticCaptchaVerifier(new Map([['token', undefined]])) });
    for (const tenantId of ['Acme!', undefined, 123, '']) {
      const guest = { tenantId, user: undefined, guest: { id: 'guest-0001', captchaToken: 'token' } } as never as Caller;
      const refusal = await domainErrorOf(core.guests.admit.execute(guest));
      expect([refusal.code, refusal.issues?.[0]?.path], String(tenantId)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'tenantId']);
    }
    expect(core.stores.guestLimiter.size).to.equal(0);
    await core.guests.admit.execute(guestCaller('acme', 'guest-0001', 'token'));
    expect(core.stores.guestLimiter.size).to.equal(1);
  });

  it('refuses a dashboard configuration that is not a plain object, storing nothing', async () => {
    const core = setup();
    const member = userCaller('acme', 'u1');
    const refusal = await domainErrorOf(core.dashboard.save.execute(member, { config: new Date() as never }));
    expect(refusal.code).to.equal(ErrorCodes.VALIDATION_FAILED);
    expect(await core.stores.dashboards.find('acme', 'u1')).to.equal(null);
  });
});

describe('Lists with holes', () => {
  it('are refused at the hole, as JSON could not send them', async () => {
    const core = setup();
    // eslint-disable-next-line no-sparse-arrays
    for (const [sections, path] of [[[, ], 'sections[0]'], [[{ fields: [, ] }], 'sections[0].fields[0]']] as const) {
      const refusal = await domainErrorOf(core.forms.create.execute(editor, { title: { en: 'H' }, slug: 'h', sections } as never));
      expect([refusal.code, refusal.issues?.[0]?.path]).to.deep.equal([ErrorCodes.VALIDATION_FAILED, path]);
    }
  });
});

describe('Webhook event lists', () => {
  it('name the position of a bad event as given, NaN and holes included', async () => {
    const admin = userCaller('acme', 'ad-1', 'admin');
    const sender: WebhookSender = { send: async () => ({ statusCode: 200 }) };
    const core = createCore({ captcha: new StaticCaptchaVerifier(), webhooks: { sender, urlGuard: { isAllowed: async () => true } } });
    for (const events of [['article.created', Number.NaN], ['article.created', , 'x']]) {
      const refusal = await domainErrorOf(core.webhooks!.create.execute(admin, { url: 'https://a.example/', events: events as never }));
      expect(refusal.issues?.[0]?.path, String(events)).to.equal('events[1]');
    }
  });
});

/**
 * A second fuzz of every entry point embedding.md names (2026-12-06, decision 0801's addendum of
 * that day): what it found reached the store unchecked or a raw `TypeError`.
 */
describe('What a second fuzz of the embedded core found', () => {
  const admin = userCaller('acme', 'ad-1', 'admin');
  const webhooks = { sender: { send: async () => ({ statusCode: 200 }) }, urlGuard: { isAllowed: async () => true } };
  const withWebhooks = () => createCore({ captcha: new StaticCaptchaVerifier(), webhooks });
  const notPlain = (): unknown[] => [new Map([['name', 'Changed']]), new Date(0), Object(7), new (class Changes {})()];

  it('refuses changes that are not a plain object in every update, as a bad body, changing nothing', async () => {
    const core = withWebhooks();
    const author = await core.authors.create.execute(editor, { name: 'Ada' });
    const category = await core.articles.createCategory.execute(editor, { name: 'News' });
    const article = await core.articles.create.execute(userCaller('acme', 'au-1', 'author'), { title: 'T', content: 'C' });
    const form = await core.forms.create.execute(editor, { title: { en: 'F' }, slug: 'f', ...oneField });
    const webhook = await core.webhooks!.create.execute(admin, { url: 'https://hooks.example/a', events: ['*'] });
    // Each kind: how to read the record, and how to update it with `changes`.
    const updates = [
      ['authors', () => core.authors.get.execute(editor, { id: author.id }), (changes: unknown) => core.authors.update.execute(editor, { id: author.id, changes })],
      [
        'categories',
        () => core.articles.getCategory.execute(editor, { id: category.id }),
        (changes: unknown) => core.articles.updateCategory.execute(editor, { id: category.id, changes }),
      ],
      ['articles', () => core.articles.get.execute(editor, { id: article.id }), (changes: unknown) => core.articles.update.execute(editor, { id: article.id, changes })],
      ['forms', () => core.forms.get.execute(editor, { id: form.id }), (changes: unknown) => core.forms.update.execute(editor, { id: form.id, changes })],
      [
        'webhooks',
        () => core.webhooks!.get.execute(admin, { id: webhook.id }),
        (changes: unknown) => core.webhooks!.update.execute(admin, { id: webhook.id, changes: changes as never }),
      ],
    ] as const;
    for (const [kind, read, update] of updates) {
      const before = await read();
      for (const changes of notPlain()) {
        const refusal = await domainErrorOf(update(changes));
        expect([refusal.code, refusal.issues?.[0]?.message], `${kind} ${String(changes)}`).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'must be an object']);
      }
      expect(await read(), kind).to.deep.equal(before);
    }
  });

  it('refuses a create member or submission values that are not a plain object, storing nothing', async () => {
    const core = setup();
    const text = new Map([['en', 'Hello']]);
    const creates: Array<[Record<string, unknown>, string]> = [
      [{ description: text, ...oneField }, 'description'],
      [{ sections: [{ title: text, fields: oneField.sections[0]!.fields }] }, 'sections[0].title'],
      [{ sections: [{ fields: [{ ...oneField.sections[0]!.fields[0]!, placeholder: text }] }] }, 'sections[0].fields[0].placeholder'],
    ];
    for (const [members, path] of creates) {
      const refusal = await domainErrorOf(core.forms.create.execute(editor, { title: { en: 'F' }, slug: 'f', ...members } as never));
      expect([refusal.code, refusal.issues?.[0]], path).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path, message: 'must be an object' }]);
    }
    expect((await core.forms.list.execute(editor, {})).forms).to.deep.equal([]);
    const form = await core.forms.create.execute(editor, { title: { en: 'F' }, slug: 'f', ...oneField });
    for (const values of notPlain()) {
      const refusal = await domainErrorOf(core.forms.submit.execute(editor, { formId: form.id, submission: { values }, mode: 'internal' } as never));
      expect([refusal.code, refusal.issues?.[0]], String(values)).to.deep.equal([ErrorCodes.VALIDATION_FAILED, { path: 'submission.values', message: 'must be an object' }]);
    }
    expect((await core.forms.listSubmissions.execute(editor, { formId: form.id })).submissions).to.deep.equal([]);
  });

  it('reads a tenant id that is not a string as no tenant: reads find nothing, writes are refused at tenantId, never a TypeError', async () => {
    const core = setup();
    await core.tenancy.manage.createTenant('123');
    const theirs = await core.authors.create.execute(userCaller('123', 'ed-1', 'editor'), { name: 'Theirs' });
    for (const tenantId of [Symbol('acme'), Object.create(null), 123, { toString: () => '123' }]) {
      const caller = { ...editor, tenantId } as never as Caller;
      const label = typeof tenantId === 'symbol' ? 'a Symbol' : String(Object.getPrototypeOf(tenantId) === null ? 'a null-prototype object' : tenantId);
      expect((await domainErrorOf(core.authors.get.execute(caller, { id: theirs.id }))).code, label).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
      expect((await core.authors.list.execute(caller, {})).authors, label).to.deep.equal([]);
      expect((await domainErrorOf(core.authors.remove.execute(caller, { id: theirs.id }))).code, label).to.equal(ErrorCodes.AUTHOR_NOT_FOUND);
      const refusal = await domainErrorOf(core.authors.create.execute(caller, { name: 'Mine' }));
      expect([refusal.code, refusal.issues?.[0]?.path], label).to.deep.equal([ErrorCodes.VALIDATION_FAILED, 'tenantId']);
    }
    expect((await core.authors.list.execute(userCaller('123', 'ed-1', 'editor'), {})).authors.map((author) => author.name)).to.deep.equal(['Theirs']);
  });

  it('finds no form by a slug that is not a string, one that reads as a slug included', async () => {
    const core = setup();
    await core.forms.create.execute(editor, { title: { en: 'C' }, slug: 'contact', ...oneField });
    for (const slug of [Symbol('contact'), Object.create(null), ['contact'], { toString: () => 'contact' }, 42]) {
      expect((await domainErrorOf(core.forms.getBySlug.execute(editor, { slug } as never))).code, typeof slug).to.equal(ErrorCodes.FORM_NOT_FOUND);
    }
    expect((await core.forms.getBySlug.execute(editor, { slug: 'contact' })).slug).to.equal('contact');
  });

  it('authenticates no key that is not a string, and none with a lone surrogate, which registerKey refuses too', async () => {
    const core = setup();
    await core.tenancy.manage.createTenant('acme');
    await core.tenancy.manage.registerKey('acme', 'operator-key-\uFFFD');
    for (const key of [['operator-key-\uFFFD'], { toString: () => 'operator-key-\uFFFD' }, Object('operator-key-\uFFFD'), 123, 'operator-key-\uD800', 'operator-key-\uDBFF']) {
      expect((await domainErrorOf(core.tenancy.authenticate.execute(key as never))).code, typeof key === 'string' ? escape(key) : String(key)).to.equal(ErrorCodes.UNAUTHORIZED);
    }
    expect((await core.tenancy.authenticate.execute('operator-key-\uFFFD')).tenantId).to.equal('acme');
    const malformed = await domainErrorOf(core.tenancy.manage.registerKey('acme', 'operator-key-\uD800'));
    expect(malformed.issues?.[0]).to.deep.equal({ path: 'key', message: 'is not well-formed Unicode text (it holds a lone surrogate)' });
    expect((await domainErrorOf(core.tenancy.manage.registerKey('acme', 'k'.repeat(513)))).issues?.[0]).to.deep.equal({ path: 'key', message: 'must be at most 512 characters' });
    await core.tenancy.manage.registerKey('acme', 'k'.repeat(512));
    expect((await core.tenancy.authenticate.execute('k'.repeat(512))).tenantId).to.equal('acme');
  });

  it("tags a created webhook's answer as its reads are, so the tag works as ifMatch and covers no secret", async () => {
    const core = withWebhooks();
    const created = await core.webhooks!.create.execute(admin, { url: 'https://hooks.example/a', events: ['*'] });
    expect(JSON.parse(JSON.stringify(created))).to.have.property('secret', created.secret); // the answer still shows it, once
    const read = await core.webhooks!.get.execute(admin, { id: created.id });
    expect(entityTag(created)).to.equal(entityTag(read));
    const { secret: _secret, ...withoutSecret } = created;
    expect(entityTag(created)).to.equal(entityTag(withoutSecret));
    const updated = await core.webhooks!.update.execute(admin, { id: created.id, changes: { description: 'x' }, ifMatch: entityTag(created) });
    expect(updated.description).to.equal('x');
    const stale = await domainErrorOf(core.webhooks!.update.execute(admin, { id: created.id, changes: { description: 'y' }, ifMatch: entityTag(created) }));
    expect(stale.code, 'the created answer’s tag is stale once the webhook changed').to.equal(ErrorCodes.PRECONDITION_FAILED);
  });

  it('checks the caller and the text of TranslateText and the arguments of GetAiUsage, built with new as embedding.md says', async () => {
    const core = setup();
    await core.tenancy.manage.createTenant('acme');
    const asked: string[] = [];
    const provider = { configured: true, translate: async ({ text }: { text: string }) => (asked.push(text), { content: text, totalTokens: 5 }) };
    const ledger = new MemoryAiUsageLedger();
    const policy = { defaultMonthlyTokenLimit: 100 };
    const translate = new TranslateText(provider, ledger, core.stores.tenants, new StaticLanguageCatalog(), policy, core.clock);
    const usage = new GetAiUsage(ledger, core.stores.tenants, policy, core.clock);
    for (const caller of [null, undefined, 'acme']) {
      expect((await domainErrorOf(translate.execute(caller as never, { text: 'hi', targetLanguage: 'fr' }))).issues?.[0]?.path, String(caller)).to.equal('caller');
    }
    for (const tenantId of [Symbol('acme'), undefined, 'Acme!']) {
      const refusal = await domainErrorOf(translate.execute({ ...editor, tenantId } as never, { text: 'hi', targetLanguage: 'fr' }));
      expect(refusal.issues?.[0]?.path, String(tenantId)).to.equal('tenantId');
      expect((await domainErrorOf(usage.execute(tenantId as never))).issues?.[0]?.path, String(tenantId)).to.equal('tenantId');
    }
    const refusal = await domainErrorOf(translate.execute(editor, { text: 'a\uD800', targetLanguage: 'fr' }));
    expect(refusal.issues?.[0]).to.deep.equal({ path: 'text', message: 'is not well-formed Unicode text (it holds a lone surrogate)' });
    expect((await domainErrorOf(usage.execute('acme', Symbol('2026-01') as never))).issues?.[0]?.path).to.equal('month');
    expect(asked).to.deep.equal([]);
    expect((await usage.execute('acme')).used).to.equal(0);
    expect((await translate.execute(editor, { text: 'hi', targetLanguage: 'fr' })).content).to.equal('hi');
    expect((await usage.execute('acme')).used).to.equal(5);
  });
});
