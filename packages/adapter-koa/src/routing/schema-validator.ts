/**
 * Request validation with AJV. Schemas are compiled once at start-up; a failure becomes a
 * domain validation error whose message is the first problem in plain words.
 */
import { _, Ajv, str, type CodeKeywordDefinition, type ErrorObject, type KeywordCxt, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { useFunc } from 'ajv/dist/compile/util.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { DomainError, ErrorCodes, FORM_LIMITS, type ErrorCode } from '@cms/core';
import {
  AVATAR_URL_PATTERN,
  EMAIL_PATTERN_SOURCE,
  ID_PATTERN_SOURCE,
  ID_WORDS,
  NOT_BLANK_PATTERN,
  PAGE_LIMIT_PATTERN,
  WEBHOOK_URL_PATTERN,
  invalidCursor,
  validationError,
} from '@cms/core/internal';
import { httpLocated } from '../http/input-paths.js';
import type { JsonSchema } from './route-definition.js';

// ajv-formats ships CommonJS with a default export; under NodeNext it arrives one level deep.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
/** AJV's own count of a string's characters for `minLength`/`maxLength` (code points; a lone surrogate is one). */
const ucs2length = ((ucs2lengthModule as unknown as { default?: unknown }).default ?? ucs2lengthModule) as ((text: string) => number) & { readonly code: string };

export type Location = 'body' | 'query' | 'params';

/** Marks a schema (or a map's `propertyNames`) as a language code of the tenant's languages. */
export const LANGUAGE_CODE = 'x-language-code';

/**
 * On a query parameter's schema, which checks the parameter's text: the schema of the value that
 * text stands for (an integer, a boolean). The OpenAPI document declares the parameter with it,
 * so a generated client takes `limit: 20` and `isActive: true` (decision 0833).
 */
export const QUERY_VALUE = 'x-query-value';

export class SchemaValidator {
  readonly #ajv: Ajv;

  constructor() {
    this.#ajv = new Ajv({ allErrors: false, strict: true, coerceTypes: false, useDefaults: false });
    addFormats(this.#ajv);
    this.#ajv.addKeyword({ keyword: 'example' });
    // An annotation: the languages are the tenant's, checked by the use case; the OpenAPI
    // document turns it into an enum of the configured languages.
    this.#ajv.addKeyword({ keyword: LANGUAGE_CODE });
    this.#ajv.addKeyword({ keyword: QUERY_VALUE }); // an annotation for the document (0833)
    // The maximum first, as AJV checks `maxLength` before `minLength`.
    this.#ajv.addKeyword(characterBound(MAX_CHARACTERS, 'more'));
    this.#ajv.addKeyword(characterBound(MIN_CHARACTERS, 'fewer'));
    this.#ajv.addKeyword(patternAfterCounts);
  }

  /** Compiles a schema into a check that throws on the first problem. */
  compile(schema: JsonSchema, location: Location, override?: ErrorCode): (value: unknown) => void {
    const compiled = withCharacterCounts(schema) as JsonSchema;
    const validate: ValidateFunction = this.#ajv.compile(compiled);
    return (value) => {
      if (validate(value)) return;
      if (override && override !== ErrorCodes.VALIDATION_FAILED) throw new DomainError(override);
      const first = reportedError(validate.errors ?? []);
      // A list's cursor that is not one string (`?cursor=a&cursor=b`) is refused as any other bad cursor (0760).
      if (location === 'query' && first?.instancePath === '/cursor') throw invalidCursor();
      const issue = first ? describe(first, location, compiled) : { path: location, message: 'is invalid' };
      throw httpLocated(validationError(issue.path, issue.message));
    };
  }
}

/**
 * `maxLength`/`minLength` as AJV checks them, answered by a string's UTF-16 length where that
 * settles it: a string has at most as many characters as units, and at least half as many. AJV
 * counts every string's characters one by one, twice with both keywords: 4.5 µs of a translate's
 * 1 KB text, for a verdict its length gives at once. A text that length cannot settle is counted
 * with AJV's own function, and a failure is AJV's message and limit (decision 0788).
 *
 * The keywords generate their check inline, as AJV's own do. A keyword with a `validate`
 * function instead is called with a new context object and the string's JSON pointer built for
 * every string checked, whether or not it fails: 5 KB of a form create's 54 KB of allocation.
 * A `pattern` beside them moves to `PATTERN_AFTER_COUNTS`, AJV's own check added after them, so
 * the order stays AJV's: the length first (which also bounds what the pattern reads), then the
 * pattern.
 */
const MAX_CHARACTERS = 'x-max-characters';
const MIN_CHARACTERS = 'x-min-characters';
const PATTERN_AFTER_COUNTS = 'x-pattern';

function characterBound(keyword: typeof MAX_CHARACTERS | typeof MIN_CHARACTERS, comparison: 'more' | 'fewer'): CodeKeywordDefinition {
  return {
    keyword,
    type: 'string',
    schemaType: 'number',
    error: {
      message: ({ schemaCode }) => str`must NOT have ${comparison} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { gen, data, schemaCode } = cxt;
      const count = useFunc(gen, ucs2length); // as AJV's own maxLength refers to it
      cxt.fail(
        comparison === 'more'
          ? _`${data}.length > ${schemaCode} && ${count}(${data}) > ${schemaCode}`
          : _`Math.ceil(${data}.length / 2) < ${schemaCode} && ${count}(${data}) < ${schemaCode}`,
      );
    },
  };
}

/** AJV's `pattern`, as a keyword added after the two counts (custom keywords run in the order added). */
const patternAfterCounts: CodeKeywordDefinition = {
  keyword: PATTERN_AFTER_COUNTS,
  type: 'string',
  schemaType: 'string',
  error: {
    message: ({ schemaCode }) => str`must match pattern "${schemaCode}"`,
    params: ({ schemaCode }) => _`{pattern: ${schemaCode}}`,
  },
  code(cxt: KeywordCxt) {
    cxt.fail(_`!${usePattern(cxt, cxt.schema as string)}.test(${cxt.data})`);
  },
};

/** Keywords whose value is a schema or a list of schemas, and those whose value maps names to schemas. */
const SUBSCHEMA = new Set(['items', 'additionalProperties', 'propertyNames', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'contains']);
const SUBSCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/**
 * The schema AJV compiles: the route's own (which the OpenAPI document shows as it is), with the
 * length keywords of each string schema that has no `format` moved to `MAX_CHARACTERS` and
 * `MIN_CHARACTERS`, and its `pattern` to `PATTERN_AFTER_COUNTS`. Without another string keyword
 * beside them, the order AJV checks in, and so the first problem reported, stays the same.
 */
function withCharacterCounts(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withCharacterCounts);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  const counted = (node.minLength !== undefined || node.maxLength !== undefined) && node.format === undefined;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (counted && (key === 'minLength' || key === 'maxLength' || key === 'pattern')) continue;
    if (SUBSCHEMA.has(key)) out[key] = withCharacterCounts(value);
    else if (SUBSCHEMA_MAP.has(key) && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, withCharacterCounts(sub)]));
    } else out[key] = value;
  }
  if (counted && node.maxLength !== undefined) out[MAX_CHARACTERS] = node.maxLength;
  if (counted && node.minLength !== undefined) out[MIN_CHARACTERS] = node.minLength;
  if (counted && node.pattern !== undefined) out[PATTERN_AFTER_COUNTS] = node.pattern;
  return out;
}

/**
 * The error a message reports: the first, except for a `oneOf` none of whose forms matched. AJV
 * lists each form's problem before the `oneOf`'s own error. Forms that failed for one reason (the
 * value is not even an array) report that reason; forms that failed for different ones report
 * the `oneOf`: the value is none of its forms.
 */
function reportedError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const first = errors[0];
  const choice = errors.find((error) => error.keyword === 'oneOf');
  if (!first || !choice || choice === first) return first;
  const forms = errors.filter((error) => error !== choice);
  return forms.every((error) => error.instancePath === first.instancePath && error.message === first.message) ? first : choice;
}

/** `must be <title> or <title>` from the titles of a `oneOf`'s forms (its place in the schema is the error's `schemaPath`). */
function formsInWords(schema: unknown, schemaPath: string): string | undefined {
  let node = schema;
  for (const part of schemaPath.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = typeof node === 'object' && node !== null && Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  const titles = Array.isArray(node) ? node.map((form) => (form as { title?: unknown } | null)?.title) : [];
  return titles.length > 0 && titles.every((title) => typeof title === 'string') ? `must be ${titles.join(' or ')}` : undefined;
}

function describe(error: ErrorObject, location: Location, schema: unknown): { path: string; message: string } {
  const base = pathOf(error.instancePath, location);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: join(base, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: join(base, String(params.additionalProperty)), message: 'is not allowed' };
    case 'propertyNames':
      return { path: join(base, String(params.propertyName)), message: 'is not an allowed key' };
    case 'type': {
      const type = String(params.type);
      // A query value is a string, or an array when the parameter was repeated (`?limit=1&limit=2`).
      if (location === 'query' && type === 'string') return { path: base, message: 'must be given only once' };
      return { path: base, message: `must be ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type.replace(',', ' or ')}` };
    }
    case 'enum':
      return { path: base, message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'pattern':
    case PATTERN_AFTER_COUNTS:
      return { path: base, message: PATTERN_WORDS.get(String(params.pattern)) ?? 'is not in the expected form' };
    case 'format':
      return { path: base, message: FORMAT_WORDS.get(String(params.format)) ?? `must be a valid ${String(params.format)}` };
    case 'oneOf':
      return { path: base, message: formsInWords(schema, error.schemaPath) ?? 'must match exactly one of its forms' };
    default:
      return { path: base, message: error.message ?? 'is invalid' };
  }
}

/** `parentId` of the category list: an id, or `root` for top-level categories. */
export const PARENT_FILTER_PATTERN = `^(${ID_PATTERN_SOURCE.slice(1, -1)}|root)$`;

/** What each pattern of our schemas asks for, in words: a message never shows a regular expression. */
const PATTERN_WORDS = new Map<string, string>([
  [ID_PATTERN_SOURCE, ID_WORDS],
  [FORM_LIMITS.slugPattern, 'may contain only lowercase letters, digits and hyphens (1 to 100 characters)'],
  [FORM_LIMITS.fieldNamePattern, 'must start with a letter and contain only letters, digits and underscores (at most 64 characters)'],
  [PAGE_LIMIT_PATTERN, 'must be an integer from 1 to 100'],
  [PARENT_FILTER_PATTERN, `${ID_WORDS} or root`],
  [WEBHOOK_URL_PATTERN, 'must be an absolute http or https URL'],
  [NOT_BLANK_PATTERN, 'must not be blank'],
  [EMAIL_PATTERN_SOURCE, 'must be an e-mail address'],
  [AVATAR_URL_PATTERN, 'must be an absolute http(s) URL'],
]);

/** The words a validation message uses for a pattern of ours, or undefined for a pattern no one described. */
export function wordsForPattern(pattern: string): string | undefined {
  return PATTERN_WORDS.get(pattern);
}

const FORMAT_WORDS = new Map<string, string>([
  ['email', 'must be an e-mail address'],
  ['uri', 'must be an absolute URL'],
  ['date', 'must be a date in the form YYYY-MM-DD'],
  ['date-time', 'must be a date and time such as 2026-01-02T03:04:05.678Z'],
]);

/** `/sections/0/title` in the body → `body.sections[0].title`; path params drop the prefix. */
function pathOf(instancePath: string, location: Location): string {
  const parts = instancePath.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  let path = location === 'params' ? '' : location;
  for (const part of parts) path = /^\d+$/.test(part) ? `${path}[${part}]` : join(path, part);
  return path;
}

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);
