/**
 * Checks of untrusted input shared by the engagement use cases (authors, categories, articles,
 * comments). Each returns the value to store or throws a validation error naming the path, so
 * core refuses bad input on its own even when no HTTP schema ran first.
 */
import { DomainError, validationError } from './domain-error.js';
import type { ErrorCode } from './error-codes.js';
import { canonicalId, ID_WORDS, isWellFormedId } from './ids.js';
import { exceedsCharacters } from './shape-rules.js';

/** A path id (`/articles/:id`): the canonical form, or the operation's own "invalid id" outcome. */
export function wellFormedIdOr(value: string, code: ErrorCode): string {
  if (!isWellFormedId(value)) throw new DomainError(code);
  return canonicalId(value);
}

/** A non-blank string of at most `max` characters, trimmed. */
export function requiredText(value: unknown, path: string, max: number): string {
  if (value === undefined || value === null) throw validationError(path, 'is required');
  if (typeof value !== 'string') throw validationError(path, 'must be a string');
  const text = value.trim();
  if (text.length === 0) throw validationError(path, 'must not be blank');
  if (exceedsCharacters(text, max)) throw validationError(path, `must be at most ${max} characters`);
  return text;
}

/** Like `requiredText`, but absent (`undefined` or `null`) is `null`. */
export function optionalText(value: unknown, path: string, max: number): string | null {
  return value === undefined || value === null ? null : requiredText(value, path, max);
}

/** A string of at most `max` characters kept exactly as sent (long text such as content, bio); absent is `fallback`. */
export function optionalLongText<F extends string | null>(value: unknown, path: string, max: number, fallback: F): string | F {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'string') throw validationError(path, 'must be a string');
  if (exceedsCharacters(value, max)) throw validationError(path, `must be at most ${max} characters`);
  return value;
}

/** A reference to another record: absent is `null`, else a well-formed id in canonical form. */
export function optionalId(value: unknown, path: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isWellFormedId(value)) throw validationError(path, ID_WORDS);
  return canonicalId(value);
}

export function optionalFlag(value: unknown, path: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'boolean') throw validationError(path, 'must be a boolean');
  return value;
}

/**
 * Texts that must not be blank, as a JSON Schema pattern (some character that is not whitespace:
 * JavaScript's `\s` is the set `trim()` removes), so a route's schema states what core checks.
 */
export const NOT_BLANK_PATTERN = String.raw`\S`;

export const EMAIL_MAX = 254;
/**
 * An author's address, deliberately plain: one `@`, a dot in the domain, no spaces. Deliverability
 * is not ours to judge. Whitespace around it is allowed (and trimmed when stored), so the pattern
 * can stand in the route's schema, where the text is checked as sent.
 */
export const EMAIL_PATTERN_SOURCE = String.raw`^\s*[^\s@]+@[^\s@]+\.[^\s@]+\s*$`;
const EMAIL_PATTERN = new RegExp(EMAIL_PATTERN_SOURCE, 'u');
const EMAIL_WORDS = 'must be an e-mail address';

/**
 * One plain address the service sends mail to: a dot-atom local part and a domain of DNS labels
 * (RFC 5321 without quoted local parts or address literals), in ASCII: an internationalized
 * domain in its punycode form (`xn--bcher-kva.de`), a local part as SMTP without SMTPUTF8 takes
 * it. No display name, list, group or
 * comment: a mail library reads `a@b.c, d@e.f` or `Boss <x@y.z>` as other or more recipients
 * than the one checked (an outbound audit, 2026-12-03: the plain rule above let both through to
 * a form's recipients and a tenant's admin addresses). A submission's `email` field, a form's
 * `recipients`, a tenant's admin addresses and a submitter's address when mailed all hold to it.
 */
export const MAIL_ADDRESS_PATTERN = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export function isMailAddress(value: unknown): value is string {
  return typeof value === 'string' && value.length <= EMAIL_MAX && MAIL_ADDRESS_PATTERN.test(value);
}

/** An author's address (`EMAIL_PATTERN_SOURCE`), trimmed; a blank one is no address (as the pattern says). */
export function optionalEmail(value: unknown, path: string): string | null {
  if (typeof value === 'string' && value.trim() === '') throw validationError(path, EMAIL_WORDS);
  // The length first: the pattern backtracks over a long text without an `@` in the right place.
  const text = optionalText(value, path, EMAIL_MAX);
  if (text !== null && !EMAIL_PATTERN.test(text)) throw validationError(path, EMAIL_WORDS);
  return text;
}

export const URL_MAX = 2048;

/**
 * An absolute http(s) URL written plainly: `http://` or `https://` (any case) right before the
 * host, then no whitespace, control character or backslash, which the WHATWG parser would mend
 * silently (`http:host` parses, and a browser reads it as a relative path). A JSON Schema pattern
 * body (no anchors), shared by a webhook's URL (decision 0799) and an author's avatar.
 */
export const PLAIN_HTTP_URL = String.raw`[Hh][Tt][Tt][Pp][Ss]?://[^/\\\s\x00-\x1f\x7f-\x9f][^\\\s\x00-\x1f\x7f-\x9f]*`;
/** An avatar's URL as sent: `PLAIN_HTTP_URL`, with whitespace around it allowed (and trimmed when stored). */
export const AVATAR_URL_PATTERN = String.raw`^\s*${PLAIN_HTTP_URL}\s*$`;
const AVATAR_URL = new RegExp(AVATAR_URL_PATTERN, 'u');
const URL_WORDS = 'must be an absolute http(s) URL';

/** An absolute http(s) URL written plainly (`AVATAR_URL_PATTERN`) that parses, trimmed; a blank one is no URL. */
export function optionalHttpUrl(value: unknown, path: string): string | null {
  if (typeof value === 'string' && value.trim() === '') throw validationError(path, URL_WORDS);
  const text = optionalText(value, path, URL_MAX);
  if (text === null) return null;
  // The pattern fixes the scheme, so a URL that parses is http or https.
  if (!AVATAR_URL.test(text) || !URL.canParse(text)) throw validationError(path, URL_WORDS);
  return text;
}
