/**
 * Entity tags of single records. Each stored record carries a `revision` that every write to it
 * increments (a counter, not a timestamp: two changes within one millisecond still differ), and
 * its tag is the id and that revision: a strong validator for the record's one URL.
 * (docs/decisions/0760-list-cursors-and-entity-tags.md)
 */
import { DomainError } from './domain-error.js';
import { ErrorCodes } from './error-codes.js';

/** What a record needs to have a tag. A record stored before revisions existed counts as 0. */
export interface Revisioned {
  readonly id: string;
  readonly revision?: number;
}

export function entityTag(record: Revisioned): string {
  return `"${record.id}-${(record.revision ?? 0).toString(36)}"`;
}

/** The tags of an `If-Match` / `If-None-Match` value, `*` kept as is; unparsable parts are skipped. */
function tagsOf(header: string): string[] {
  const tags: string[] = [];
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '*' || /^(W\/)?"[^"]*"$/.test(tag)) tags.push(tag);
  }
  return tags;
}

/**
 * `If-Match` (RFC 9110 §13.1.1): absent passes; `*` passes for an existing record; otherwise one
 * listed tag must equal the record's by strong comparison (a weak tag never does). Throws
 * `PRECONDITION_FAILED` when it does not hold.
 */
export function checkIfMatch(header: string | undefined, record: Revisioned): void {
  if (header === undefined) return;
  const current = entityTag(record);
  const tags = tagsOf(header);
  if (tags.includes('*') || tags.includes(current)) return;
  throw new DomainError(ErrorCodes.PRECONDITION_FAILED, 'Precondition failed');
}

/** `If-None-Match` on a read (RFC 9110 §13.1.2, weak comparison): true when the caller's copy is current. */
export function noneMatchHolds(header: string | undefined, record: Revisioned): boolean {
  if (header === undefined) return false;
  const current = entityTag(record);
  return tagsOf(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === current);
}
