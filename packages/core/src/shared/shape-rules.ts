/**
 * Checks of an input's shape in domain words: objects, known properties, strings, lists, enums,
 * numbers in a range. Each throws `VALIDATION_FAILED` naming the domain path (`sections[0].title`,
 * `''` for the whole input) and returns nothing: plain loops and `typeof`, no copies, so a use
 * case can run them on every call. Adapters turn the domain path into their own (adapter-koa:
 * `body.…`); decision 0801.
 */
import { validationError } from './domain-error.js';
import { isPlainContainer } from './frozen-snapshots.js';

export type JsonObject = Record<string, unknown>;

/** A plain object, as JSON makes them: a `Date` or a `Map` handed in by embedding code is not one. */
export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && isPlainContainer(value);

/** JSON `null` means "absent" for every optional property. */
export const isAbsent = (value: unknown): value is null | undefined => value === undefined || value === null;

/** `sections[0]` + `title` → `sections[0].title`; the whole input (`''`) + `title` → `title`. */
export const pathTo = (base: string, key: string): string => (base === '' ? key : `${base}.${key}`);

export function requireObject(value: unknown, path: string): asserts value is JsonObject {
  if (!isJsonObject(value)) throw validationError(path, 'must be an object');
}

/** An object whose own properties are all among `allowed`. */
export function requireKnownKeys(value: unknown, path: string, allowed: ReadonlySet<string>): asserts value is JsonObject {
  requireObject(value, path);
  for (const key in value) {
    if (Object.hasOwn(value, key) && !allowed.has(key)) throw validationError(pathTo(path, key), 'is not allowed');
  }
}

/** A string of 1 (when `nonEmpty`) or 0 to `max` characters as a reader counts them. */
export function requireString(value: unknown, path: string, max: number, nonEmpty = true): asserts value is string {
  if (typeof value !== 'string') throw validationError(path, 'must be a string');
  if (nonEmpty && value.length === 0) throw validationError(path, 'must not be empty');
  if (exceedsCharacters(value, max)) throw validationError(path, `must be at most ${max} characters`);
}

/**
 * Whether the text has more than `max` characters as a reader counts them (an emoji or a CJK
 * extension character is one, not two; JSON Schema's `maxLength` counts so too). A text of at
 * most `max` UTF-16 units cannot, so only a longer one is walked.
 */
export function exceedsCharacters(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let length = 0;
  for (const _ of text) if (++length > max) return true;
  return false;
}

export function requireMatch(value: unknown, path: string, pattern: RegExp, words: string): asserts value is string {
  if (typeof value !== 'string' || !pattern.test(value)) throw validationError(path, words);
}

export function requireOneOf<T extends string>(value: unknown, path: string, allowed: readonly T[]): asserts value is T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw validationError(path, `must be one of ${allowed.join(', ')}`);
  }
}

/** A list of `min` to `max` items. */
export function requireList(value: unknown, path: string, min: number, max: number): asserts value is unknown[] {
  if (!Array.isArray(value)) throw validationError(path, 'must be a list');
  if (value.length < min) throw validationError(path, `must have at least ${min} item${min === 1 ? '' : 's'}`);
  if (value.length > max) throw validationError(path, `must have at most ${max} items`);
  // A hole (`[ , ]`, which embedding code can build and JSON cannot) is no item: `map` skips it.
  for (let index = 0; index < value.length; index += 1) if (!(index in value)) throw validationError(`${path}[${index}]`, 'is missing');
}

/** A finite number from `min` to `max`. */
export function requireNumberIn(value: unknown, path: string, min: number, max: number): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw validationError(path, 'must be a number');
  if (value < min || value > max) throw validationError(path, `must be from ${min} to ${max}`);
}

/** Absent, or a boolean. */
export function checkOptionalFlag(value: unknown, path: string): void {
  if (!isAbsent(value) && typeof value !== 'boolean') throw validationError(path, 'must be a boolean');
}
