/**
 * Entity tags of single records (§6.3). A record's tag is a digest of its answer (the view
 * callers receive, as JSON), so it changes whenever anything the caller can see changes; and
 * every update moves `updatedAt` forward by at least one millisecond (`nextUpdatedAt`), so two
 * updates within one millisecond still give two tags. The same `updatedAt` is what a store's
 * conditional write compares, which makes the `If-Match` check and the write one step
 * (docs/decisions/0760-list-cursors-and-entity-tags.md).
 */
import { hash } from 'node:crypto';
import { DomainError, validationError } from './domain-error.js';
import { ErrorCodes } from './error-codes.js';

/** Tags of frozen views (the embedded store shares one per stored snapshot) are worked out once. */
const knownTags = new WeakMap<object, string>();

/** Where `taggedAs` keeps the view a view is tagged as: a symbol, which JSON leaves out. */
const TAGGED_AS = Symbol('cms.taggedAs');

/**
 * `view`, tagged as `tagView` is: its entity tag is `tagView`'s, wherever it is worked out (the
 * HTTP adapter's `ETag`, an embedder's `entityTag(view)`), while its JSON stays its own. For an
 * answer that carries more than later reads of the record show: a created webhook's carries its
 * secret, once, and its tag is the one its reads answer, which says nothing of the secret
 * (decision 0784). Returns `view`.
 */
export function taggedAs<V extends object>(view: V, tagView: object): V {
  Object.defineProperty(view, TAGGED_AS, { value: tagView });
  return view;
}

/**
 * The tag of a view. `text`, when given, answers the view's JSON text (an adapter that writes
 * the same text into the answer passes its own, so the view is serialised once per answer).
 * `remember: false` (a write's answer) skips keeping a frozen view's tag: a weak-map entry per
 * write costs the collector more than the one digest a later read works out again.
 */
export function entityTag(view: object, text?: () => string, remember = true): string {
  const known = knownTags.get(view);
  if (known !== undefined) return known;
  const tagView = (view as { readonly [TAGGED_AS]?: object })[TAGGED_AS];
  if (tagView !== undefined) return entityTag(tagView, undefined, remember);
  // One-shot `hash`: cheaper per call than createHash().update().digest().
  const tag = `"${hash('sha256', text ? text() : JSON.stringify(view), 'base64url').slice(0, 27)}"`;
  if (remember && Object.isFrozen(view)) knownTags.set(view, tag);
  return tag;
}

/** `updatedAt` of an update: now, but always later than the previous one. */
export function nextUpdatedAt(previous: Date, now: Date): Date {
  return now.getTime() > previous.getTime() ? now : new Date(previous.getTime() + 1);
}

/**
 * An `If-Match` / `If-None-Match` value (RFC 9110 §13.1.1-2): `'*'` for `*` alone, else its list of
 * entity tags (empty elements skipped, as a list allows); `undefined` when an element is neither
 * an entity tag nor allowed there (`*` inside a list, text without quotes): a malformed value,
 * which matches no record (decision 0760).
 */
function tagsOf(header: string): '*' | string[] | undefined {
  if (isAnyRecord(header)) return '*';
  const tags: string[] = [];
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === '') continue;
    if (!ENTITY_TAG.test(tag)) return undefined;
    tags.push(tag);
  }
  return tags;
}

const ENTITY_TAG = /^(W\/)?"[^"]*"$/;

/** `*` alone: any existing record. */
function isAnyRecord(header: string): boolean {
  return header.trim() === '*';
}

/**
 * `If-Match` (RFC 9110 §13.1.1): absent passes; `*` passes for an existing record; otherwise one
 * listed tag must equal the record's by strong comparison (a weak tag never does). Throws
 * `PRECONDITION_FAILED` when it does not hold. `viewOf` builds the view whose tag is compared,
 * only when a tag has to be: most writes send no `If-Match`.
 */
export function checkIfMatch(given: string | undefined, viewOf: () => object): void {
  const header = conditionOf(given, 'ifMatch');
  if (header === undefined) return;
  const tags = tagsOf(header);
  if (tags === '*' || (tags !== undefined && tags.includes(entityTag(viewOf())))) return;
  throw preconditionFailed();
}

/**
 * The version a delete must still find for `If-Match` to hold at the moment it deletes: the
 * record's `updatedAt` when the header names a tag, none when it is absent or `*` (any record).
 */
export function versionToMatch(header: string | undefined, record: { readonly updatedAt: Date }): Date | undefined {
  return namesVersion(header) ? record.updatedAt : undefined;
}

/** Whether an `If-Match` ties the write to the version read: anything but absent or `*`. */
export function namesVersion(given: string | undefined): given is string {
  const header = conditionOf(given, 'ifMatch');
  return header !== undefined && !isAnyRecord(header);
}

/**
 * A condition as an embedding caller may pass it: a string, or absent (`undefined`, or `null` as
 * JSON writes an absent optional member). Anything else is a bad input, not a `TypeError` later.
 */
function conditionOf(given: unknown, path: string): string | undefined {
  if (given === undefined || given === null) return undefined;
  if (typeof given !== 'string') throw validationError(path, 'must be an entity tag list (a string)');
  return given;
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
export function noneMatchHolds(given: string | undefined, tag: string): boolean {
  const header = conditionOf(given, 'ifNoneMatch');
  if (header === undefined) return false;
  const tags = tagsOf(header);
  return tags === '*' || (tags !== undefined && tags.some((candidate) => candidate.replace(/^W\//, '') === tag));
}
