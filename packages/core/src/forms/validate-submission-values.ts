/**
 * Checks a submit body `{values: {<fieldName>: value}}` against the form (§2.5 companions) and
 * returns the values to store. A blank string or JSON `null` counts as "not answered": a
 * required field then is missing, an optional one is left out of the stored values. Relation
 * fields take no value here; they are filled by the connect operation.
 */
import { validationError } from '../shared/domain-error.js';
import { isMailAddress } from '../shared/input-rules.js';
import { exceedsCharacters, requireObject } from '../shared/shape-rules.js';
import { fieldsOf, type FieldType, type Form, type FormField } from './form.js';

/** The longest string any field accepts. */
export const MAX_VALUE_LENGTH = 10_000;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;


const unanswered = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/**
 * Throws `VALIDATION_FAILED` naming the first problem (paths under `at`, the submission's place
 * in the operation's input); returns the answered values.
 */
export function validateSubmissionValues(form: Form, body: unknown, at = ''): Record<string, unknown> {
  const under = at === '' ? '' : `${at}.`;
  requireObject(body, at);
  for (const key of Object.keys(body)) if (key !== 'values') throw validationError(under + key, 'is not allowed');
  const values = body.values;
  if (values === undefined || values === null) throw validationError(`${under}values`, 'is required');
  requireObject(values, `${under}values`);

  const fields = new Map(fieldsOf(form).map((field) => [field.name, field]));
  for (const [name, value] of Object.entries(values)) {
    const field = fields.get(name);
    if (!field) throw validationError(`${under}values.${name}`, 'is not a field of this form');
    if (field.type === 'relation' && value !== null && value !== undefined) {
      throw validationError(`${under}values.${name}`, 'is a relation field: connect it through the relations route');
    }
  }

  const accepted: Record<string, unknown> = {};
  for (const field of fields.values()) {
    if (field.type === 'relation') continue;
    // Own properties only: a field named after an Object.prototype member (`constructor`) must
    // not find the prototype's function when the caller left it out.
    const value = Object.hasOwn(values, field.name) ? values[field.name] : undefined;
    const path = `${under}values.${field.name}`;
    if (unanswered(value)) {
      if (field.required) throw validationError(path, 'is required');
      continue;
    }
    const problem = problemOf(field, value);
    if (problem) throw validationError(path, problem);
    accepted[field.name] = value;
  }
  return accepted;
}

/** Why `value` is not an answer of the field's kind, or undefined when it is one. */
function problemOf(field: FormField, value: unknown): string | undefined {
  const kind: FieldType = field.type;
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'checkbox':
      return typeof value === 'boolean' ? undefined : 'must be a boolean';
    case 'select': {
      const allowed = (field.options ?? []).map((option) => option.value);
      return typeof value === 'string' && allowed.includes(value) ? undefined : `must be one of ${allowed.join(', ')}`;
    }
    case 'email':
      return textProblem(value) ?? (isMailAddress(value) ? undefined : 'must be an e-mail address');
    case 'url':
      return textProblem(value) ?? (isHttpUrl(value as string) ? undefined : 'must be an http(s) URL');
    case 'date':
      return textProblem(value) ?? (isCalendarDate(value as string) ? undefined : 'must be a date in the form YYYY-MM-DD');
    case 'text':
    case 'textarea':
    case 'phone':
      return textProblem(value);
    case 'relation':
      return 'is a relation field: connect it through the relations route';
  }
}

function textProblem(value: unknown): string | undefined {
  return typeof value === 'string' && !exceedsCharacters(value, MAX_VALUE_LENGTH) ? undefined : `must be a string of at most ${MAX_VALUE_LENGTH} characters`;
}

function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value) || /\s/.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // not Date.UTC, which maps years 0-99 to 1900-1999
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
