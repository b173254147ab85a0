// Reference 4, the contract's least (decision 0843): a Koa app that answers eleven of the rows
// that miss their budget (POST /forms/create, the four PATCHes, the relation connect, the article
// and the author create + delete pairs, the submit + erase pairs, POST /ai/translate, PUT
// /ai/repurpose/template) doing only what the contract asks of them, with none of the service's
// layers (no container, use case, port, storage seam, metrics registry, webhook staging,
// turn-taking of writers, list index, Host or compression check). What it does per request:
// - Koa, @koa/router and koa-bodyparser, as the Koa reference has them;
// - one edge middleware: the request id (the caller's if safe, else a UUID), a trace context, the
//   §8 headers, the error envelope, a count per route and status, one log line written in batches;
// - the API key looked up by its remembered digest; where the route takes an editor (the article,
//   category and author writes, the erasure), the bearer token's claims remembered after one
//   HS256 check, its expiry, tenant and role checked every time;
// - the body checked by the service's own JSON Schema (AJV, as the service compiles it), and for
//   forms create and update the service's create rules (`normalizeFormInput`, on the stored form
//   with the change over it for an update): the rules a minimum cannot leave out, borrowed
//   rather than written again;
// - the record kept in a Map (a created one as its JSON text, a form's slug unique per tenant), a
//   SHA-256 entity tag on its answer;
// - the article delete: its comments' and reactions' entries looked up and dropped with it; the
//   author delete: its articles' entries looked up, their author set to null (none in the bench);
// - the submit: §2.5's order of checks on the seeded form, its values checked by the service's own
//   rules (`validateSubmissionValues`, borrowed), the submission kept (no CAPTCHA: a form asking
//   for one is answered 500; no notification jobs: the bench's form sends none); the erasure: the
//   submissions whose relations hold it looked up and its id taken out (none in the bench);
// - the connect and the form update: on the records the service's seed made (MINIMUM_SEED: a file
//   of them); the connect makes §2.5's checks in their order, the relation written unless it
//   already holds the id; the other PATCHes' records are made by their first request;
// - the template PUT: the user (the token's subject, else `x-user-id`), the body's schema, its
//   language one of the tenant's, the tenant's template (made with the defaults by the first
//   request) with the given members over it, kept and answered with its tag;
// - translate: the quota read before the provider call and added to after it, the call through
//   the service's own provider adapter with the child `traceparent`, as the floor makes it.
// MINIMUM_SKIP (comma-separated) leaves parts out, to see what each costs: ajv, normalize, keep,
// etag, log, uuid, headers, bearer, trace. (Answers set their content type directly, as the
// service does: Koa's `ctx.type` looks the type up on every answer.)
// (Without `keep`, a create + delete pair's deletes find nothing: 404s, which the run reports.)
// Run by contract-minimum.mjs (prints `listening <port>`); imported by inprocess-ab.mjs --minimum
// (the settings read from the environment then are the importer's).
import { createHmac, hash, randomUUID, timingSafeEqual } from 'node:crypto';
import { openSync, readFileSync, write } from 'node:fs';
import { pathToFileURL } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';
import bodyParser from 'koa-bodyparser';
import { OpenAiChatTranslationProvider } from '../../packages/adapter-ai/dist/index.js';
import { translateBodySchema } from '../../packages/adapter-koa/dist/ai/translate.schemas.js';
import { createArticleBodySchema, createCategoryBodySchema } from '../../packages/adapter-koa/dist/articles/articles.schemas.js';
import { createAuthorBodySchema } from '../../packages/adapter-koa/dist/authors/authors.schemas.js';
import { repurposeTemplatePatchSchema } from '../../packages/adapter-koa/dist/repurpose/repurpose.schemas.js';
import { connectBodySchema, createFormBodySchema } from '../../packages/adapter-koa/dist/forms/forms.schemas.js';
import { partialBodySchema } from '../../packages/adapter-koa/dist/http/record-schemas.js';
import { SchemaValidator } from '../../packages/adapter-koa/dist/routing/schema-validator.js';
import { normalizeFormInput } from '../../packages/core/dist/forms/normalize-form-input.js';
import { validateSubmissionValues } from '../../packages/core/dist/forms/validate-submission-values.js';
import { defaultRepurposeTemplate } from '../../packages/core/dist/repurpose/repurpose-template.js';
import { newId } from '../../packages/core/dist/shared/ids.js';
import { childSpanOf } from '../../packages/core/dist/shared/trace-context.js';

const skip = new Set((process.env.MINIMUM_SKIP ?? '').split(','));
const LANGUAGES = ['en', 'fr', 'de', 'es', 'it']; // the service's default CMS_LANGUAGES
const TOKEN_LIMIT = 1_000_000_000; // the bench's AI_TOKEN_LIMIT_MONTHLY
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const ID = /^[0-9a-f]{24}$/;
const JSON_TYPE = 'application/json; charset=utf-8';

const schemas = new SchemaValidator();
const checkForm = schemas.compile(createFormBodySchema, 'body');
const checkTranslate = schemas.compile(translateBodySchema, 'body');
const checkConnect = schemas.compile(connectBodySchema, 'body');
const checkArticle = schemas.compile(createArticleBodySchema, 'body');
const checkAuthor = schemas.compile(createAuthorBodySchema, 'body');
const checkFormChange = schemas.compile(partialBodySchema(createFormBodySchema), 'body');
const checkTemplateChange = schemas.compile(repurposeTemplatePatchSchema, 'body');
const FORM_KEYS = ['title', 'slug', 'sections', 'description', 'submitButtonText', 'isActive', 'visibility', 'captcha', 'notifications', 'flow'];
const provider = process.env.AI_BASE_URL && new OpenAiChatTranslationProvider({ baseUrl: process.env.AI_BASE_URL, apiKey: 'bench-provider-key', model: 'bench-model', timeoutMs: 30_000 });
const SECRET = process.env.MINIMUM_JWT_SECRET ?? '';

const tenantOfKeyDigest = new Map(JSON.parse(process.env.MINIMUM_KEYS ?? '[]').map(({ key, tenantId }) => [hash('sha256', key), tenantId]));
const keyDigests = new Map(); // keys seen, and their digests
const claimsOfToken = new Map(); // verified bearer tokens' claims
const formTexts = new Map(); // form id → JSON text
const slugs = new Set(); // tenant \0 slug
const articleTexts = new Map(); // tenant \0 id → JSON text
const commentsOfArticle = new Map(); // tenant \0 article id → comment ids (none in the bench)
const reactionsOfArticle = new Map(); // tenant \0 article id → reactions (none in the bench)
const authorTexts = new Map(); // tenant \0 id → JSON text
const articlesOfAuthor = new Map(); // tenant \0 author id → article ids (none in the bench)
const relationHolders = new Map(); // tenant \0 submission id → ids of the submissions whose relations hold it (none in the bench)
const tokensUsed = new Map(); // tenant \0 month → tokens
const templates = new Map(); // tenant → repurpose template
const seed = process.env.MINIMUM_SEED ? JSON.parse(readFileSync(process.env.MINIMUM_SEED, 'utf8')) : { tenantId: '', forms: [], submissions: [] };
const withDates = (record) => ({ ...record, createdAt: new Date(record.createdAt), updatedAt: new Date(record.updatedAt) });
const forms = new Map(seed.forms.map((form) => [`${seed.tenantId}\0${form.id}`, withDates(form)]));
const submissions = new Map(seed.submissions.map((submission) => [`${seed.tenantId}\0${submission.id}`, withDates(submission)]));
const relationFieldsOf = new Map(); // form id → its relation fields by name
const counts = new Map(); // method route status → requests

const log = openSync(process.env.MINIMUM_LOG ?? '/dev/null', 'a');
// Each request's line waits as its eight values and is made with its batch, as the service's
// (decision 0845): the least way to write it.
const LINE_VALUES = 8;
let lines = [];
const lineText = (v, at) =>
  `{"time":"${new Date(v[at]).toISOString()}","level":"info","msg":"request","method":"${v[at + 1]}","route":"${v[at + 2]}","status":${v[at + 3]},"durationMs":${v[at + 4]},"requestId":"${v[at + 5]}","traceId":"${v[at + 6]}","tenant":"${v[at + 7]}"}\n`;
setInterval(() => {
  if (!lines.length) return;
  const values = lines;
  lines = [];
  let text = '';
  for (let at = 0; at < values.length; at += LINE_VALUES) text += lineText(values, at);
  write(log, text, () => {});
}, 50).unref();

const refused = (status, message) => Object.assign(new Error(message), { status });

const router = new Router();
router.post('/cms/forms/create', (ctx) => {
  const { tenantId } = ctx.state;
  if (!skip.has('ajv')) checkForm(ctx.request.body);
  const { definition } = skip.has('normalize') ? { definition: ctx.request.body } : normalizeFormInput(ctx.request.body, { languages: LANGUAGES, defaultCaptchaProvider: 'none' });
  const now = new Date();
  const form = { id: newId(now, tenantId), tenantId, ...definition, createdBy: ctx.req.headers['x-user-id'] ?? null, createdAt: now, updatedAt: now };
  const slugKey = `${tenantId}\0${form.slug}`;
  if (slugs.has(slugKey)) throw refused(409, 'Form slug already exists');
  const data = JSON.stringify(form);
  if (!skip.has('keep')) {
    slugs.add(slugKey);
    formTexts.set(form.id, data);
  }
  answer(ctx, 201, 'Form created successfully', 'form', data);
});
router.patch('/cms/forms/update/:id', (ctx) => {
  const { tenantId } = ctx.state;
  const { id } = ctx.params;
  if (!ID.test(id)) throw refused(400, 'Invalid form id');
  const key = `${tenantId}\0${id}`;
  const current = forms.get(key);
  if (!current) throw refused(404, 'Form not found');
  const body = ctx.request.body;
  if (!skip.has('ajv')) checkFormChange(body);
  // The stored form with the change over it, `null` taking the default, through every rule of create.
  const merged = {};
  for (const name of FORM_KEYS) {
    const value = Object.hasOwn(body, name) ? body[name] : current[name];
    if (value !== null && value !== undefined) merged[name] = value;
  }
  const { definition } = skip.has('normalize') ? { definition: merged } : normalizeFormInput(merged, { languages: LANGUAGES, defaultCaptchaProvider: 'none' });
  const form = { id, tenantId, ...definition, createdBy: current.createdBy, createdAt: current.createdAt, updatedAt: nextUpdatedAt(current) };
  const data = JSON.stringify(form);
  if (!skip.has('keep')) forms.set(key, form);
  answer(ctx, 200, 'Form updated successfully', 'form', data);
});
router.patch('/cms/categories/update/:id', smallRecordUpdate('category', {
  check: schemas.compile(partialBodySchema(createCategoryBodySchema), 'body'),
  keys: ['name', 'parentId', 'reactionsEnabled'],
  seeded: { name: 'Bench category', parentId: null, reactionsEnabled: true },
  changes: (body, current) => ({ name: requiredText(body.name ?? current.name, 'name', 100) }),
  view: ({ id, name, parentId, reactionsEnabled, createdAt, updatedAt }) => ({ id, name, parentId, reactionsEnabled, createdAt, updatedAt }),
}));
router.patch('/cms/authors/update/:id', smallRecordUpdate('author', {
  check: schemas.compile(partialBodySchema(createAuthorBodySchema), 'body'),
  keys: ['name', 'email', 'bio', 'avatarUrl'],
  seeded: { name: 'Bench author', email: null, bio: null, avatarUrl: null },
  changes: (body, current) => ({ bio: optionalText(Object.hasOwn(body, 'bio') ? body.bio : current.bio, 'bio', 2000) }),
  view: ({ id, name, email, bio, avatarUrl, createdAt, updatedAt }) => ({ id, name, email, bio, avatarUrl, createdAt, updatedAt }),
}));
router.patch('/cms/articles/update/:id', smallRecordUpdate('article', {
  check: schemas.compile(partialBodySchema(createArticleBodySchema), 'body'),
  keys: ['title', 'content', 'authorId', 'categoryId', 'subCategoryId', 'reactionsEnabled'],
  seeded: { title: 'Bench article', content: 'Lorem ipsum '.repeat(20), authorId: null, categoryId: null, subCategoryId: null, reactionsEnabled: true, likes: 0, dislikes: 0 },
  changes: (body, current) => ({ title: requiredText(body.title ?? current.title, 'title', 200) }),
  view: ({ tenantId, ...view }) => view,
}));
router.post('/cms/articles/create', editorCreate('article', {
  check: checkArticle,
  texts: articleTexts,
  view: (body, id, now) => {
    const title = requiredText(body.title, 'title', 200);
    return { id, title, content: body.content ?? '', authorId: null, categoryId: null, subCategoryId: null, reactionsEnabled: body.reactionsEnabled ?? true, likes: 0, dislikes: 0, createdAt: now, updatedAt: now };
  },
}));
router.delete('/cms/articles/delete/:id', (ctx) => {
  if (!skip.has('bearer')) requireEditor(ctx);
  const { id } = ctx.params;
  if (!ID.test(id)) throw refused(400, 'Invalid article id');
  const key = `${ctx.state.tenantId}\0${id}`;
  if (!articleTexts.has(key)) throw refused(404, 'Article not found');
  commentsOfArticle.delete(key);
  reactionsOfArticle.delete(key);
  articleTexts.delete(key);
  answerDeleted(ctx, 'Article');
});
router.post('/cms/authors/create', editorCreate('author', {
  check: checkAuthor,
  texts: authorTexts,
  view: (body, id, now) => {
    const name = requiredText(body.name, 'name', 200);
    return { id, name, email: body.email ?? null, bio: body.bio ?? null, avatarUrl: body.avatarUrl ?? null, createdAt: now, updatedAt: now };
  },
}));
router.delete('/cms/authors/delete/:id', (ctx) => {
  if (!skip.has('bearer')) requireEditor(ctx);
  const key = `${ctx.state.tenantId}\0${ctx.params.id}`;
  if (!ID.test(ctx.params.id) || !authorTexts.has(key)) throw refused(404, 'Author not found');
  for (const articleId of articlesOfAuthor.get(key) ?? []) {
    const articleKey = `${ctx.state.tenantId}\0${articleId}`;
    const text = articleTexts.get(articleKey); // an article deleted since is no longer there
    if (text !== undefined) articleTexts.set(articleKey, JSON.stringify({ ...JSON.parse(text), authorId: null }));
  }
  articlesOfAuthor.delete(key);
  authorTexts.delete(key);
  answerDeleted(ctx, 'Author');
});
router.post('/cms/forms/:id/submit', (ctx) => {
  const { tenantId } = ctx.state;
  const { id } = ctx.params;
  if (!ID.test(id)) throw refused(400, 'Invalid form id');
  const form = forms.get(`${tenantId}\0${id}`);
  if (!form) throw refused(404, 'Form not found');
  if (!form.isActive) throw refused(403, 'Form is not active');
  if (form.visibility === 'internal') throw refused(403, 'Form is internal');
  if (form.captcha.enabled) throw new Error('the minimum checks no CAPTCHA');
  const values = skip.has('ajv') ? ctx.request.body.values : validateSubmissionValues(form, ctx.request.body);
  const now = new Date();
  const submission = { id: newId(now, tenantId), formId: id, values, relations: {}, submittedBy: ctx.req.headers['x-user-id'] ?? null, createdAt: now, updatedAt: now };
  if (!skip.has('keep')) submissions.set(`${tenantId}\0${submission.id}`, submission);
  answer(ctx, 201, 'Form submitted successfully', 'submission', JSON.stringify(submission));
});
router.delete('/cms/forms/submission/:id', (ctx) => {
  if (!skip.has('bearer')) requireEditor(ctx);
  const { tenantId } = ctx.state;
  const { id } = ctx.params;
  if (!ID.test(id)) throw refused(400, 'Invalid submission id');
  const key = `${tenantId}\0${id}`;
  if (!submissions.has(key)) throw refused(404, 'Submission not found');
  for (const holderId of relationHolders.get(key) ?? []) {
    const holder = submissions.get(`${tenantId}\0${holderId}`);
    const relations = Object.fromEntries(
      Object.entries(holder.relations)
        .map(([field, held]) => [field, Array.isArray(held) ? held.filter((related) => related !== id) : held])
        .filter(([, held]) => held !== id),
    );
    submissions.set(`${tenantId}\0${holderId}`, { ...holder, relations, updatedAt: nextUpdatedAt(holder) });
  }
  relationHolders.delete(key);
  submissions.delete(key);
  answerDeleted(ctx, 'Submission');
});
router.post('/cms/forms/submission/:id/relations/:fieldName/connect', (ctx) => {
  const { tenantId } = ctx.state;
  const { id, fieldName } = ctx.params;
  if (!ID.test(id)) throw refused(400, 'Invalid submission id');
  if (!skip.has('ajv')) checkConnect(ctx.request.body);
  const { relatedSubmissionId } = ctx.request.body;
  const submission = submissions.get(`${tenantId}\0${id}`);
  if (!submission) throw refused(404, 'Submission not found');
  const relation = relationFieldsIn(forms.get(`${tenantId}\0${submission.formId}`)).get(fieldName);
  if (!relation) throw refused(404, 'Relation field not found');
  const related = submissions.get(`${tenantId}\0${relatedSubmissionId}`);
  if (!related) throw refused(404, 'Related submission not found');
  if (related.formId !== relation.formId) throw refused(400, 'Related submission belongs to another form');
  let record = submission;
  if (submission.relations[fieldName] !== relatedSubmissionId) {
    record = { ...submission, relations: { ...submission.relations, [fieldName]: relatedSubmissionId }, updatedAt: nextUpdatedAt(submission) };
    if (!skip.has('keep')) submissions.set(`${tenantId}\0${id}`, record);
  }
  const { formId, values, relations, submittedBy, createdAt, updatedAt } = record;
  answer(ctx, 200, 'Relation connected successfully', 'submission', JSON.stringify({ id, formId, values, relations, submittedBy, createdAt, updatedAt }));
});
router.post('/cms/ai/translate', async (ctx) => {
  const body = ctx.request.body;
  if (!skip.has('ajv')) checkTranslate(body);
  if (typeof body.text !== 'string' || body.text.trim() === '') throw refused(400, 'text must not be blank');
  if (!LANGUAGES.includes(body.targetLanguage)) throw refused(400, 'targetLanguage is not a language of the tenant');
  const now = new Date();
  const month = `${ctx.state.tenantId}\0${now.getUTCFullYear()}-${now.getUTCMonth() + 1}`;
  if ((tokensUsed.get(month) ?? 0) >= TOKEN_LIMIT) throw refused(429, 'AI token quota exceeded');
  const request = { text: body.text, targetLanguage: body.targetLanguage };
  if (ctx.state.trace) request.trace = ctx.state.trace;
  const result = await provider.translate(request);
  const used = (tokensUsed.get(month) ?? 0) + result.totalTokens;
  tokensUsed.set(month, used);
  ctx.res.setHeader('content-type', JSON_TYPE);
  ctx.body = JSON.stringify({ success: true, statusCode: 200, message: 'OK', data: { content: result.content, tokens: { used, remaining: Math.max(0, TOKEN_LIMIT - used), limit: TOKEN_LIMIT } } });
});
router.put('/cms/ai/repurpose/template', (ctx) => {
  const { tenantId } = ctx.state;
  const user = ctx.req.headers.authorization === undefined ? ctx.req.headers['x-user-id'] : bearerClaims(ctx).sub;
  if (typeof user !== 'string' || user === '') throw refused(400, 'Missing userId');
  const body = ctx.request.body;
  if (!skip.has('ajv')) checkTemplateChange(body);
  const language = body.defaults?.language;
  if (language !== undefined && language !== null && !LANGUAGES.includes(language)) throw refused(400, 'defaults.language is not a language of the tenant');
  const current = templates.get(tenantId) ?? defaultRepurposeTemplate(tenantId, new Date());
  let platforms = current.platforms;
  if (body.platforms) {
    platforms = { ...platforms };
    for (const name of Object.keys(body.platforms)) if (body.platforms[name]) platforms[name] = withGiven(platforms[name], body.platforms[name]);
  }
  const defaults = body.defaults ? withGiven(current.defaults, body.defaults) : current.defaults;
  const template = { ...current, defaults, platforms, updatedBy: user, updatedAt: nextUpdatedAt(current) };
  const data = JSON.stringify(template);
  if (!skip.has('keep')) templates.set(tenantId, template);
  if (!skip.has('etag')) ctx.res.setHeader('etag', `"${hash('sha256', data, 'base64url')}"`);
  ctx.res.setHeader('content-type', JSON_TYPE);
  ctx.body = `{"success":true,"statusCode":200,"message":"Repurpose template updated","data":${data}}`;
});

/** `record` with the members `given` holds over it (a `null` leaves a member as it is). */
function withGiven(record, given) {
  const merged = { ...record };
  for (const name of Object.keys(given)) if (given[name] !== null) merged[name] = given[name];
  return merged;
}

/**
 * A create behind an editor's bearer token: the body's schema, the record's view (its rules
 * applied), kept as its JSON text in `texts` and answered with its tag.
 */
function editorCreate(kind, { check, texts, view }) {
  const message = `${kind[0].toUpperCase()}${kind.slice(1)} created successfully`;
  return (ctx) => {
    if (!skip.has('bearer')) requireEditor(ctx);
    const { tenantId } = ctx.state;
    const body = ctx.request.body;
    if (!skip.has('ajv')) check(body);
    const now = new Date();
    const id = newId(now, tenantId);
    const data = JSON.stringify(view(body, id, now));
    if (!skip.has('keep')) texts.set(`${tenantId}\0${id}`, data);
    answer(ctx, 201, message, kind, data);
  };
}

/**
 * A PATCH of a small record behind an editor's bearer token (§6.3 without If-Match): the id, the
 * stored record (the service's seed made it; here the first request does), the body's schema and
 * keys, the changed members' rules, the record kept and answered with its tag.
 */
function smallRecordUpdate(kind, { check, keys, seeded, changes, view }) {
  const records = new Map(); // tenant \0 id → record
  const message = `${kind[0].toUpperCase()}${kind.slice(1)} updated successfully`;
  return (ctx) => {
    if (!skip.has('bearer')) requireEditor(ctx);
    const { id } = ctx.params;
    if (!ID.test(id)) throw refused(400, `Invalid ${kind} id`);
    const key = `${ctx.state.tenantId}\0${id}`;
    let current = records.get(key);
    if (!current) {
      const now = new Date();
      current = { id, tenantId: ctx.state.tenantId, ...seeded, createdAt: now, updatedAt: now };
    }
    const body = ctx.request.body;
    if (!skip.has('ajv')) check(body);
    for (const name of Object.keys(body)) if (!keys.includes(name)) throw refused(400, `${name} is not allowed`);
    const record = { ...current, ...changes(body, current), updatedAt: nextUpdatedAt(current) };
    const data = JSON.stringify(view(record));
    if (!skip.has('keep')) records.set(key, record);
    answer(ctx, 200, message, kind, data);
  };
}

function requiredText(value, name, max) {
  if (typeof value !== 'string' || !value.trim() || value.length > max) throw refused(400, `${name} is invalid`);
  return value;
}

function optionalText(value, name, max) {
  if (value === null || value === undefined) return null;
  return requiredText(value, name, max);
}

/** A delete's answer: `<Kind> deleted successfully`, no data. */
function answerDeleted(ctx, kind) {
  ctx.res.setHeader('content-type', JSON_TYPE);
  ctx.body = `{"success":true,"statusCode":200,"message":"${kind} deleted successfully","data":null}`;
}

/** A changed record's `updatedAt`: now, or a millisecond past the one it replaces (its tag must change). */
function nextUpdatedAt({ updatedAt }) {
  const now = new Date();
  return now > updatedAt ? now : new Date(updatedAt.getTime() + 1);
}

/** A single record's answer: the envelope around its JSON text, with the record's entity tag. */
function answer(ctx, status, message, member, data) {
  if (!skip.has('etag')) ctx.res.setHeader('etag', `"${hash('sha256', data, 'base64url')}"`);
  ctx.status = status;
  ctx.res.setHeader('content-type', JSON_TYPE);
  ctx.body = `{"success":true,"statusCode":${status},"message":"${message}","data":{"${member}":${data}}}`;
}

/** A form's relation fields by name (`relation`: their target form), worked out once a form. */
function relationFieldsIn(form) {
  if (!form) return new Map();
  let fields = relationFieldsOf.get(form.id);
  if (!fields) {
    fields = new Map(form.sections.flatMap((section) => section.fields).filter((field) => field.relation).map((field) => [field.name, field.relation]));
    relationFieldsOf.set(form.id, fields);
  }
  return fields;
}

/** A bearer token of the tenant's editor or admin. */
function requireEditor(ctx) {
  const claims = bearerClaims(ctx);
  if (claims.role !== 'admin' && claims.role !== 'editor') throw refused(403, 'Forbidden');
}

/** The bearer token's claims: its HS256 signature checked once, its expiry and tenant every time. */
function bearerClaims(ctx) {
  const header = ctx.req.headers.authorization ?? '';
  if (!header.startsWith('Bearer ')) throw refused(401, 'Unauthorized');
  const token = header.slice(7);
  let claims = claimsOfToken.get(token);
  if (!claims) {
    const [head, payload, signature] = token.split('.');
    const expected = createHmac('sha256', SECRET).update(`${head}.${payload}`).digest();
    const given = Buffer.from(signature ?? '', 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused(401, 'Unauthorized');
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    claimsOfToken.set(token, claims);
  }
  if (claims.exp !== undefined && claims.exp * 1000 <= Date.now()) throw refused(401, 'Unauthorized');
  if (claims.tenant !== ctx.state.tenantId) throw refused(403, 'Forbidden');
  return claims;
}

const app = new Koa();
app.use(async (ctx, next) => {
  const started = performance.now();
  const given = ctx.req.headers['x-request-id'];
  const requestId = skip.has('uuid') ? 'none' : typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
  ctx.state.trace = skip.has('trace') ? undefined : childSpanOf(undefined, requestId);
  if (!skip.has('headers')) {
    ctx.res.setHeader('x-request-id', requestId);
    ctx.res.setHeader('x-content-type-options', 'nosniff');
    ctx.res.setHeader('cache-control', 'no-store');
  }
  try {
    const key = String(ctx.req.headers['x-api-key']);
    let digest = keyDigests.get(key);
    if (digest === undefined) keyDigests.set(key, (digest = hash('sha256', key)));
    ctx.state.tenantId = tenantOfKeyDigest.get(digest);
    if (!ctx.state.tenantId) throw refused(401, 'Unauthorized');
    await next();
  } catch (error) {
    // A status of ours, or a domain error's (the schema check and the create rules throw those): 400.
    const expected = error.status ?? (typeof error.code === 'string' ? 400 : undefined);
    ctx.status = expected ?? 500;
    ctx.body = { success: false, statusCode: ctx.status, message: expected ? error.message : 'Server Error', data: null };
  } finally {
    const status = ctx.res.statusCode;
    const route = ctx._matchedRoute ?? null;
    const counted = `${ctx.method} ${route} ${status}`;
    counts.set(counted, (counts.get(counted) ?? 0) + 1);
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (!skip.has('log')) {
      lines.push(Date.now(), ctx.method, route, status, durationMs, requestId, ctx.state.trace?.traceId, ctx.state.tenantId);
    }
  }
});
app.use(bodyParser());
app.use(router.routes());

/** The minimum's Koa app, for a driver that loads it in its own process (inprocess-ab.mjs --minimum). */
export const minimumApp = app;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const server = app.listen(0, '127.0.0.1', () => process.stdout.write(`listening ${server.address().port}\n`));
  server.keepAliveTimeout = 65_000;
  process.on('SIGTERM', () => process.exit(0));
}
