/**
 * Entity tags of single records (§6.3). A record's tag is a digest of its answer (the view
 * callers receive, as JSON), so it changes whenever anything the caller can see changes; and
 * every update moves `updatedAt` forward by at least one millisecond (`nextUpdatedAt`), so two
 * updates within one millisecond still give two tags. The same `updatedAt` is what a store's
 * conditional write compares, which makes the `If-Match` check and the write one step
 * (docs/decisions/0760-list-cursors-and-entity-tags.md).
 */
import { hash } from 'node:crypto';
import { DomainError } from './domain-error.js';
import { ErrorCodes } from './error-codes.js';

/** Tags of frozen views (the embedded store shares one per stored snapshot) are worked out once. */
const knownTags = new WeakMap<object, string>();

/**
 * The tag of a view. `text`, when given, answers the view's JSON text (an adapter that writes
 * the same text into the answer passes its own, so the view is serialised once per answer).
 * `remember: false` (a write's answer) skips keeping a frozen view's tag: a weak-map entry per
 * write costs the collector more than the one digest a later read works out again.
 */
export function entityTag(view: object, text?: () => string, remember = true): string {
  const known = knownTags.get(view);
  if (known !== undefined) return known;
  // One-shot `hash`: cheaper per call than createHash().update().digest().
  const tag = `"${hash('sha256', text ? text() : JSON.stringify(view), 'base64url').slice(0, 27)}"`;
  if (remember && Object.isFrozen(view)) knownTags.set(view, tag);
  return tag;
}

/** `updatedAt` of an update: now, but always later than the previous one. */
export function nextUpdatedAt(previous: Date, now: Date): Date {
  return now.getTime() > previous.getTime() ? now : new Date(previous.getTime() + 1);
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
 * `PRECONDITION_FAILED` when it does not hold. `viewOf` builds the view whose tag is compared,
 * only when a tag has to be: most writes send no `If-Match`.
 */
export function checkIfMatch(header: string | undefined, viewOf: () => object): void {
  if (header === undefined) return;
  const tags = tagsOf(header);
  if (tags.includes('*') || tags.includes(entityTag(viewOf()))) return;
  throw preconditionFailed();
}

/**
 * The version a delete must still find for `If-Match` to hold at the moment it deletes: the
 * record's `updatedAt` when the header names a tag, none when it is absent or `*` (any record).
 */
export function versionToMatch(header: string | undefined, record: { readonly updatedAt: Date }): Date | undefined {
  return header === undefined || header.trim() === '*' ? undefined : record.updatedAt;
}

/**
 * The `updatedAt` a delete's claim writes before its cascade (the one conditional write that
 * makes its `If-Match` atomic): one millisecond past the version checked, so every writer still
 * holding that version fails from then on. The record is about to go, so no clock is needed.
 */
export function claimedVersion(record: { readonly updatedAt: Date }): Date {
  return new Date(record.updatedAt.getTime() + 1);
}

export function preconditionFailed(): DomainError {
  return new DomainError(ErrorCodes.PRECONDITION_FAILED, 'Precondition failed');
}

/** `If-None-Match` on a read (RFC 9110 §13.1.2, weak comparison): true when the caller's copy is current. */
export function noneMatchHolds(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  return tagsOf(header).some((candidate) => candidate === '*' || candidate.replace(/^W\//, '') === tag);
}
