/**
 * The shape rules of a form definition that are not about fields: captcha, notifications, flow,
 * and the tenant-language texts every part uses. Domain paths (`captcha.minScore`); decision 0801.
 */
import { CAPTCHA_PROVIDERS } from '../captcha/captcha.ports.js';
import { validationError } from '../shared/domain-error.js';
import { ID_WORDS, isWellFormedId } from '../shared/ids.js';
import { EMAIL_MAX, MAIL_ADDRESS_PATTERN } from '../shared/input-rules.js';
import {
  checkOptionalFlag,
  isAbsent,
  pathTo,
  requireKnownKeys,
  requireList,
  requireNumberIn,
  requireObject,
  requireOneOf,
  requireString,
  type JsonObject,
} from '../shared/shape-rules.js';
import { FORM_LIMITS, type LocalizedText } from './form.js';

const keys = (...names: string[]): ReadonlySet<string> => new Set(names);

export const FORM_KEYS = keys('title', 'slug', 'sections', 'description', 'submitButtonText', 'isActive', 'visibility', 'captcha', 'notifications', 'flow');
export const SECTION_KEYS = keys('title', 'description', 'fields');
export const FIELD_KEYS = keys('name', 'type', 'label', 'required', 'placeholder', 'options', 'relation');
export const OPTION_KEYS = keys('value', 'label');
export const RELATION_KEYS = keys('formId', 'multiple');
const CAPTCHA_KEYS = keys('enabled', 'provider', 'minScore');
const NOTIFICATION_KEYS = keys('enabled', 'email', 'push');
const EMAIL_KEYS = keys('admin', 'submitter');
const EMAIL_ADMIN_KEYS = keys('enabled', 'recipients');
const EMAIL_SUBMITTER_KEYS = keys('enabled', 'field');
const PUSH_KEYS = keys('admin', 'submitter');
const ENABLED_KEYS = keys('enabled');
const FLOW_KEYS = keys('nextFormId', 'previousFormId');

export const SLUG_PATTERN = new RegExp(FORM_LIMITS.slugPattern);
export const FIELD_NAME_PATTERN = new RegExp(FORM_LIMITS.fieldNamePattern);

/** A text per tenant language, checked and copied. */
export type TextChecker = (value: unknown, path: string, max: number, required?: boolean) => LocalizedText;

/**
 * Absent optional maps become `{}`; a map is an object whose every key is a tenant language (or
 * one `keeps` accepts) and every text non-blank, of at most `max` characters; a required one has
 * at least one entry.
 */
export function localizedTextChecker(languages: readonly string[], keeps?: (language: string) => boolean): TextChecker {
  return (value, path, max, required = false) => {
    // Keys reach `result` only once they are tenant languages, never `__proto__`.
    const result: LocalizedText = {};
    if (!required && isAbsent(value)) return result;
    requireObject(value, path);
    let count = 0;
    for (const language in value) {
      if (!Object.hasOwn(value, language)) continue;
      const content = (value as JsonObject)[language];
      const at = pathTo(path, language);
      if (!languages.includes(language) && !keeps?.(language)) {
        throw validationError(at, `is not a configured language (${languages.join(', ')})`);
      }
      requireString(content, at, max);
      if (content.trim() === '') throw validationError(at, 'must not be blank');
      result[language] = content;
      count += 1;
    }
    if (required && count === 0) throw validationError(path, 'must have a text in at least one language');
    return result;
  };
}

/** `captcha`: absent, or known keys with a provider and a minimum score from 0 to 1. */
export function checkCaptcha(value: unknown): void {
  if (isAbsent(value)) return;
  requireKnownKeys(value, 'captcha', CAPTCHA_KEYS);
  checkOptionalFlag(value.enabled, 'captcha.enabled');
  if (!isAbsent(value.provider)) requireOneOf(value.provider, 'captcha.provider', CAPTCHA_PROVIDERS);
  if (!isAbsent(value.minScore)) requireNumberIn(value.minScore, 'captcha.minScore', 0, 1);
}

/** `notifications`: known keys at every level, flags, recipients as e-mail addresses. */
export function checkNotifications(value: unknown): void {
  if (isAbsent(value)) return;
  requireKnownKeys(value, 'notifications', NOTIFICATION_KEYS);
  checkOptionalFlag(value.enabled, 'notifications.enabled');
  const email = value.email;
  if (!isAbsent(email)) {
    requireKnownKeys(email, 'notifications.email', EMAIL_KEYS);
    const admin = email.admin;
    if (!isAbsent(admin)) {
      requireKnownKeys(admin, 'notifications.email.admin', EMAIL_ADMIN_KEYS);
      checkOptionalFlag(admin.enabled, 'notifications.email.admin.enabled');
      if (!isAbsent(admin.recipients)) checkRecipients(admin.recipients, 'notifications.email.admin.recipients');
    }
    const submitter = email.submitter;
    if (!isAbsent(submitter)) {
      requireKnownKeys(submitter, 'notifications.email.submitter', EMAIL_SUBMITTER_KEYS);
      checkOptionalFlag(submitter.enabled, 'notifications.email.submitter.enabled');
      if (!isAbsent(submitter.field) && typeof submitter.field !== 'string') throw validationError('notifications.email.submitter.field', 'must be a string');
    }
  }
  const push = value.push;
  if (!isAbsent(push)) {
    requireKnownKeys(push, 'notifications.push', PUSH_KEYS);
    for (const who of ['admin', 'submitter'] as const) {
      const part = push[who];
      if (isAbsent(part)) continue;
      requireKnownKeys(part, `notifications.push.${who}`, ENABLED_KEYS);
      checkOptionalFlag(part.enabled, `notifications.push.${who}.enabled`);
    }
  }
}

function checkRecipients(value: unknown, path: string): void {
  requireList(value, path, 0, FORM_LIMITS.recipientsMax);
  for (let index = 0; index < value.length; index += 1) {
    const address = value[index];
    const at = `${path}[${index}]`;
    requireString(address, at, EMAIL_MAX);
    if (!MAIL_ADDRESS_PATTERN.test(address)) throw validationError(at, 'must be an e-mail address');
  }
}

/** `flow`: absent, or known keys whose values are absent or well-formed form ids. */
export function checkFlow(value: unknown): void {
  if (isAbsent(value)) return;
  requireKnownKeys(value, 'flow', FLOW_KEYS);
  for (const key of ['nextFormId', 'previousFormId'] as const) requireOptionalFormId(value[key], `flow.${key}`);
}

export function requireOptionalFormId(value: unknown, path: string): void {
  if (!isAbsent(value) && !isWellFormedId(value)) throw validationError(path, ID_WORDS);
}
