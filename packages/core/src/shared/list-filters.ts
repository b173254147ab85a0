/**
 * Filters of the list operations (§6.1), read from untrusted query values (text, or already
 * typed when core is embedded): each returns the filter or undefined when absent, and throws a
 * validation error naming the parameter otherwise.
 */
import { validationError } from './domain-error.js';
import { canonicalId, ID_WORDS, isWellFormedId } from './ids.js';
import { portToken, type PortToken } from './port-token.js';
import type { PageCursors } from './page-cursor.js';

/** The service's one cursor signer, shared by every list. */
export const PageCursorsToken: PortToken<PageCursors> = portToken('PageCursors');

export function flagFilter(value: unknown, name: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw validationError(name, 'must be one of true, false');
}

export function choiceFilter<T extends string>(value: unknown, name: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw validationError(name, `must be one of ${allowed.join(', ')}`);
}

export function idFilter(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isWellFormedId(value)) throw validationError(name, ID_WORDS);
  return canonicalId(value);
}

/** The text of a filter in a cursor's scope: absent is null. */
export const scopeText = (value: boolean | string | null | undefined): string | null => (value === undefined ? null : String(value));

/** The filter without its absent members (exactOptionalPropertyTypes-friendly). */
export function dropAbsent<T extends object>(filter: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const present: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) present[key] = value;
  return present as { [K in keyof T]?: Exclude<T[K], undefined> };
}
