/**
 * The invalid requests of the HTTP suites whose inputs go to one use case, in one place: the
 * HTTP specs send them and check status and message; \`core-refuses-what-http-refuses.spec.ts\` hands
 * each straight to its use case and checks that core refuses it with the same code (issue 22 item 1).
 * Rows keep the shape their HTTP spec reads: [name, body, expected message or path].
 */
import { formBody } from './form-requests.js';

type Row = [string, unknown, string];

let slugs = 0;
/** Each row its own slug, as the HTTP suite sends them to one service. */
const slug = () => `schema-${++slugs}`;

const base = () => formBody(slug());
const withField = (extra: object) => formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' }, ...extra }] }] });
/** POST /forms/create with a property the contract does not describe: [name, body, the path named]. */
export const CREATE_FORM_UNKNOWN_PROPERTIES: Row[] = [
  ['at the top level', { ...base(), colour: 'red' }, 'body.colour'],
  ['in a section', formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text', label: { en: 'A' } }], layout: 'grid' }] }), 'body.sections[0].layout'],
  ['in a field', withField({ foo: 1 }), 'body.sections[0].fields[0].foo'],
  ['in an option', withField({ type: 'select', options: [{ value: 'v', label: { en: 'V' }, icon: 'x' }] }), 'body.sections[0].fields[0].options[0].icon'],
  ['in a relation', withField({ type: 'relation', relation: { formId: 'a'.repeat(24), cascade: true } }), 'body.sections[0].fields[0].relation.cascade'],
  ['in captcha', { ...base(), captcha: { enabled: true, secret: 's' } }, 'body.captcha.secret'],
  ['in notifications', { ...base(), notifications: { sms: {} } }, 'body.notifications.sms'],
  ['in notifications.email', { ...base(), notifications: { email: { cc: [] } } }, 'body.notifications.email.cc'],
  ['in notifications.email.admin', { ...base(), notifications: { email: { admin: { bcc: [] } } } }, 'body.notifications.email.admin.bcc'],
  ['in notifications.email.submitter', { ...base(), notifications: { email: { submitter: { template: 'x' } } } }, 'body.notifications.email.submitter.template'],
  ['in notifications.push', { ...base(), notifications: { push: { everyone: {} } } }, 'body.notifications.push.everyone'],
  ['in notifications.push.admin', { ...base(), notifications: { push: { admin: { topic: 'x' } } } }, 'body.notifications.push.admin.topic'],
  ['in flow', { ...base(), flow: { loop: true } }, 'body.flow.loop'],
];

/** POST /forms/create with the wrong shape: [name, body, the start of the message after `Validation failed: `]. */
export const CREATE_FORM_WRONG_SHAPES: Row[] = [
  ['a body that is not an object', ['x'], 'body must be an object'],
  ['no title', { slug: slug(), sections: formBody('x').sections }, 'body.title is required'],
  ['an empty title map', formBody(slug(), { title: {} }), 'body.title must NOT have fewer than 1 properties'],
  ['a title that is not text', formBody(slug(), { title: { en: 5 } }), 'body.title.en must be a string'],
  ['a title over 500 characters', formBody(slug(), { title: { en: 'x'.repeat(501) } }), 'body.title.en must NOT have more than 500 characters'],
  ['a description over 5000 characters', formBody(slug(), { description: { en: 'x'.repeat(5001) } }), 'body.description.en must NOT have more than 5000 characters'],
  ['a submit text over 100 characters', formBody(slug(), { submitButtonText: { en: 'x'.repeat(101) } }), 'body.submitButtonText.en must NOT have more than 100 characters'],
  ['no slug', { title: { en: 'T' }, sections: formBody('x').sections }, 'body.slug is required'],
  ['an upper-case slug', formBody('Contact'), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
  ['a slug with a space', formBody('contact us'), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
  ['a slug of 101 characters', formBody('a'.repeat(101)), 'body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
  ['no sections', formBody(slug(), { sections: [] }), 'body.sections must NOT have fewer than 1 items'],
  ['51 sections', formBody(slug(), { sections: Array.from({ length: 51 }, (_, i) => ({ fields: [{ name: `f${i}`, type: 'text', label: { en: 'F' } }] })) }), 'body.sections must NOT have more than 50 items'],
  ['a section without fields', formBody(slug(), { sections: [{ fields: [] }] }), 'body.sections[0].fields must NOT have fewer than 1 items'],
  ['201 fields', formBody(slug(), { sections: [{ fields: Array.from({ length: 201 }, (_, i) => ({ name: `f${i}`, type: 'text', label: { en: 'F' } })) }] }), 'body.sections[0].fields must NOT have more than 200 items'],
  ['a field name starting with a digit', withField({ name: '1a' }), 'body.sections[0].fields[0].name must start with a letter and contain only letters, digits and underscores (at most 64 characters)'],
  ['an unknown field type', withField({ type: 'colour' }), 'body.sections[0].fields[0].type must be one of text, email'],
  ['a field without label', formBody(slug(), { sections: [{ fields: [{ name: 'a', type: 'text' }] }] }), 'body.sections[0].fields[0].label is required'],
  ['required as a string', withField({ required: 'yes' }), 'body.sections[0].fields[0].required must be a boolean'],
  ['an empty options list', withField({ type: 'select', options: [] }), 'body.sections[0].fields[0].options must NOT have fewer than 1 items'],
  ['201 options', withField({ type: 'select', options: Array.from({ length: 201 }, (_, i) => ({ value: `v${i}`, label: { en: 'V' } })) }), 'body.sections[0].fields[0].options must NOT have more than 200 items'],
  ['a malformed relation form id', withField({ type: 'relation', relation: { formId: 'nope' } }), 'body.sections[0].fields[0].relation.formId must be an id of 24 hexadecimal characters'],
  ['an unknown visibility', formBody(slug(), { visibility: 'secret' }), 'body.visibility must be one of public, internal'],
  ['an unknown CAPTCHA provider', formBody(slug(), { captcha: { provider: 'recaptcha-v2' } }), 'body.captcha.provider must be one of recaptcha, hcaptcha, turnstile, none'],
  ['minScore above 1', formBody(slug(), { captcha: { minScore: 1.5 } }), 'body.captcha.minScore must be <= 1'],
  ['minScore below 0', formBody(slug(), { captcha: { minScore: -0.1 } }), 'body.captcha.minScore must be >= 0'],
  ['captcha as a number', formBody(slug(), { captcha: 5 }), 'body.captcha must be an object'],
  ['a recipient that is not an address', formBody(slug(), { notifications: { email: { admin: { recipients: ['ops'] } } } }), 'body.notifications.email.admin.recipients[0] must be an e-mail address'],
  ['a malformed next form id', formBody(slug(), { flow: { nextFormId: '123' } }), 'body.flow.nextFormId must be an id of 24 hexadecimal characters'],
];

/** PUT /reports/dashboardConfig: [name, body, message]. */
export const DASHBOARD_REFUSALS: Row[] = [
  ['a JSON array body', [1, 2], 'Validation failed: body must be an object'],
  ['a JSON string body', 'x', 'Validation failed: body must be an object'],
  ['version as a string', { version: 'one' }, 'Validation failed: body.version must be a number'],
  ['version 0', { version: 0 }, 'Validation failed: body.version must be >= 1'],
  ['a 65-character templateId', { templateId: 'x'.repeat(65) }, 'Validation failed: body.templateId must NOT have more than 64 characters'],
  ['slots as an object', { slots: { a: 1 } }, 'Validation failed: body.slots must be an array'],
  ['25 slots', { slots: Array.from({ length: 25 }, () => ({})) }, 'Validation failed: body.slots must NOT have more than 24 items'],
  ['a slot that is a number', { slots: [3] }, 'Validation failed: body.slots[0] must be an object'],
  ['enabled as a string', { slots: [{ enabled: 'no' }] }, 'Validation failed: body.slots[0].enabled must be a boolean'],
  ['settings as a string', { slots: [{ settings: 'x' }] }, 'Validation failed: body.slots[0].settings must be an object'],
  ['duplicate slot ids', { slots: [{ id: 'a' }, { id: 'a' }] }, 'Validation failed: body.slots[1].id duplicates the slot id "a"'],
];

/** PUT /ai/repurpose/template: [name, body, the start of the message]. */
export const TEMPLATE_REFUSALS: Row[] = [
  ['an unknown top-level property', { colour: 'red' }, 'Validation failed: body.colour is not allowed'],
  ['an unknown platform', { platforms: { myspace: {} } }, 'Validation failed: body.platforms.myspace is not allowed'],
  ['an unknown platform property', { platforms: { twitter: { font: 'x' } } }, 'Validation failed: body.platforms.twitter.font is not allowed'],
  ['an unknown tone', { defaults: { tone: 'grumpy' } }, 'Validation failed: body.defaults.tone must be one of'],
  ['a fractional maxHashtags', { platforms: { twitter: { maxHashtags: 1.5 } } }, 'Validation failed: body.platforms.twitter.maxHashtags must be an integer'],
  ['31 hashtags', { platforms: { twitter: { maxHashtags: 31 } } }, 'Validation failed: body.platforms.twitter.maxHashtags must be <= 30'],
  ['a long ctaTemplate', { platforms: { twitter: { ctaTemplate: 'x'.repeat(501) } } }, 'Validation failed: body.platforms.twitter.ctaTemplate must NOT have more than 500 characters'],
  ['a long hashtagStyle', { platforms: { twitter: { hashtagStyle: 'x'.repeat(201) } } }, 'Validation failed: body.platforms.twitter.hashtagStyle must NOT have more than 200 characters'],
  ['a language the tenant lacks', { defaults: { language: 'de' } }, 'Validation failed: body.defaults.language must be one of en, fr'],
  ['a non-object body', [], 'Validation failed: body must be an object'],
];

/** POST /ai/translate (tenant languages en, fr, de): [name, body, message after `Validation failed: `]. */
export const TRANSLATE_REFUSALS: Row[] = [
  ['no body', undefined, 'body must be an object'],
  ['a non-object body', ['Hello'], 'body must be an object'],
  ['a missing text', { targetLanguage: 'fr' }, 'body.text is required'],
  ['a text that is not a string', { text: 42, targetLanguage: 'fr' }, 'body.text must be a string'],
  ['an empty text', { text: '', targetLanguage: 'fr' }, 'body.text must NOT have fewer than 1 characters'],
  ['a blank text', { text: ' \n\t ', targetLanguage: 'fr' }, 'body.text must not be blank'],
  ['a text of 20001 characters', { text: 'a'.repeat(20_001), targetLanguage: 'fr' }, 'body.text must NOT have more than 20000 characters'],
  ['a missing targetLanguage', { text: 'Hello' }, 'body.targetLanguage is required'],
  ['a null targetLanguage', { text: 'Hello', targetLanguage: null }, 'body.targetLanguage must be a string'],
  ['a targetLanguage the tenant lacks', { text: 'Hello', targetLanguage: 'es' }, 'body.targetLanguage must be one of en, fr, de'],
  ['a sourceLanguage the tenant lacks', { text: 'Hello', targetLanguage: 'fr', sourceLanguage: 'ar' }, 'body.sourceLanguage must be one of en, fr, de'],
  ['a sourceLanguage that is not a string', { text: 'Hello', targetLanguage: 'fr', sourceLanguage: 7 }, 'body.sourceLanguage must be a string'],
  ['an unknown property', { text: 'Hello', targetLanguage: 'fr', model: 'gpt-5' }, 'body.model is not allowed'],
];

/** PUT /articles/{id}/reaction: [body, message]; `null` is a request without a body. */
export const REACTION_REFUSALS = [
  [{}, 'Validation failed: body.type is required'],
  [{ type: 'love' }, 'Validation failed: body.type must be one of like, dislike'],
  [{ type: 'like', extra: 1 }, 'Validation failed: body.extra is not allowed'],
  [null, 'Validation failed: body must be an object'],
  ['like', 'Validation failed: body must be an object'],
] as const;

/** PATCH /forms/update/{id} of the form `formId` (tenant languages en, ar, fr, es, de): [body, message]. */
export function formUpdateRefusals(formId: string): Array<[unknown, string]> {
  return [
    [{ flow: { nextFormId: formId } }, 'Validation failed: body.flow.nextFormId must not name the form itself'],
    [{ createdAt: '2026-01-01T00:00:00.000Z' }, 'Validation failed: body.createdAt is not allowed'],
    [{ id: formId }, 'Validation failed: body.id is not allowed'],
    [{ slug: 'Bad Slug' }, 'Validation failed: body.slug may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
    [{ title: null }, 'Validation failed: body.title must be an object'],
    [{ title: { xx: 'Hi' } }, 'Validation failed: body.title.xx is not a configured language (en, ar, fr, es, de)'],
  ];
}

/** POST /authors/create: [name, body, message]. */
export const AUTHOR_REFUSALS: Row[] = [
  ['no name', {}, 'Validation failed: body.name is required'],
  ['an empty name', { name: '' }, 'Validation failed: body.name must NOT have fewer than 1 characters'],
  ['a blank name', { name: '   ' }, 'Validation failed: body.name must not be blank'],
  ['a 201-character name', { name: 'x'.repeat(201) }, 'Validation failed: body.name must NOT have more than 200 characters'],
  ['a bad e-mail', { name: 'A', email: 'ada-at-example' }, 'Validation failed: body.email must be an e-mail address'],
  ['a long bio', { name: 'A', bio: 'x'.repeat(5001) }, 'Validation failed: body.bio must NOT have more than 5000 characters'],
  ['a relative avatar URL', { name: 'A', avatarUrl: 'ada.png' }, 'Validation failed: body.avatarUrl must be an absolute http(s) URL'],
  ['a blank e-mail', { name: 'A', email: ' ' }, 'Validation failed: body.email must be an e-mail address'],
  ['an e-mail with two @', { name: 'A', email: 'ada@home@example.org' }, 'Validation failed: body.email must be an e-mail address'],
  ['a blank avatar URL', { name: 'A', avatarUrl: '\t' }, 'Validation failed: body.avatarUrl must be an absolute http(s) URL'],
  ['an avatar URL without its slashes', { name: 'A', avatarUrl: 'http:example.org/ada.png' }, 'Validation failed: body.avatarUrl must be an absolute http(s) URL'],
  ['an avatar URL with a backslash', { name: 'A', avatarUrl: 'https://example.org\\ada.png' }, 'Validation failed: body.avatarUrl must be an absolute http(s) URL'],
  ['an avatar URL that does not parse', { name: 'A', avatarUrl: 'https://example.org:99999/' }, 'Validation failed: body.avatarUrl must be an absolute http(s) URL'],
  ['an unknown property', { name: 'A', twitter: '@ada' }, 'Validation failed: body.twitter is not allowed'],
  ['a non-object body', ['Ada'], 'Validation failed: body must be an object'],
];

/** POST /categories/create: [body, message]. */
export const CATEGORY_REFUSALS = [
  [{}, 'Validation failed: body.name is required'],
  [{ name: ' \n ' }, 'Validation failed: body.name must not be blank'],
  [{ name: 'A', slug: 'a' }, 'Validation failed: body.slug is not allowed'],
  [{ name: 'A', reactionsEnabled: 'yes' }, 'Validation failed: body.reactionsEnabled must be a boolean'],
] as const;
