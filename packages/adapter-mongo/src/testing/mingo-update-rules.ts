/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): the rules MongoDB applies to an update
 * before running it — operators only, no conflicting paths, `$addToSet` only onto arrays — and
 * how an upsert seeds its new document from the filter.
 */
import type { Document } from 'mongodb';
import { update as applyModifier } from 'mingo';
import { ServerDoubleError } from './mingo-double-errors.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

export function splitUpdate(update: Document): { modifier: Document; setOnInsert: Document | undefined } {
  if (Array.isArray(update)) throw new Error('MingoCollectionDouble does not support pipeline updates');
  const operators = Object.keys(update);
  if (operators.length === 0 || operators.some((key) => !key.startsWith('$'))) {
    throw new Error('Update document requires atomic operators');
  }
  assertNoConflicts(update);
  const { $setOnInsert, ...modifier } = update;
  return { modifier, setOnInsert: $setOnInsert as Document | undefined };
}

/** MongoDB refuses an update that names one path twice, or a path and its parent. */
function assertNoConflicts(update: Document): void {
  const paths = Object.values(update).flatMap((fields) => Object.keys(fields as Document));
  for (const path of paths) {
    const clash = paths.find((other) => other !== path && (other.startsWith(`${path}.`) || path.startsWith(`${other}.`)));
    if (clash !== undefined || paths.indexOf(path) !== paths.lastIndexOf(path)) {
      throw new ServerDoubleError(40, `Updating the path '${path}' would create a conflict at '${clash ?? path}'`);
    }
  }
}

/**
 * MongoDB fails an `$addToSet` whose field exists but is not an array (null included), code 2;
 * mingo leaves such a document unchanged without a word, which would hide an adapter bug.
 */
export function assertArrayTargets(document: Document, modifier: Document): void {
  for (const path of Object.keys((modifier.$addToSet as Document | undefined) ?? {})) {
    const value = valueAt(document, path);
    if (value !== undefined && !Array.isArray(value)) {
      const type = value === null ? 'null' : typeof value;
      throw new ServerDoubleError(2, `Cannot apply $addToSet to non-array field. Field named '${path.split('.').pop()}' has non-array type ${type}`);
    }
  }
}

/** The fields an upsert copies from its filter: plain equalities and `$eq`, not other operators. */
export function seedFromFilter(filter: Document): Document {
  const equalities: Document = {};
  for (const [path, value] of Object.entries(filter)) {
    if (path.startsWith('$')) continue;
    if (isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$'))) {
      if ('$eq' in value) equalities[path] = value.$eq;
      continue;
    }
    equalities[path] = value;
  }
  const seeded: Document = {};
  if (Object.keys(equalities).length > 0) applyModifier(seeded, { $set: equalities });
  return seeded;
}

/** The value at a dotted path, read through own members only, as MongoDB reads a document. */
export function valueAt(document: Document, path: string): unknown {
  let node: unknown = document;
  for (const segment of path.split('.')) {
    if (!isPlainObject(node) || !Object.hasOwn(node, segment)) return undefined;
    node = node[segment];
  }
  return node;
}

/**
 * Runs `apply` (mingo's update of `document`) so that a path segment named like a member of
 * `Object.prototype` (a relation field `toString`) that the document lacks counts as absent.
 * mingo walks a path with plain indexing, finds the inherited member and leaves `$addToSet` or
 * `$push` undone without a word; MongoDB sees no such member and creates the field. Each such
 * segment gets an own placeholder while `apply` runs; those the update left empty go again.
 */
export function withOwnPaths<T>(document: Document, modifier: Document, apply: () => T): T {
  const placeholders: Array<[Record<string, unknown>, string]> = [];
  for (const fields of Object.values(modifier)) {
    for (const path of Object.keys(fields as Document)) {
      let node: unknown = document;
      for (const segment of path.split('.')) {
        if (!isPlainObject(node)) break;
        if (!Object.hasOwn(node, segment) && segment in node) {
          Object.defineProperty(node, segment, { value: undefined, writable: true, enumerable: true, configurable: true });
          placeholders.push([node, segment]);
          break;
        }
        node = node[segment];
      }
    }
  }
  try {
    return apply();
  } finally {
    for (const [node, segment] of placeholders) if (node[segment] === undefined) delete node[segment];
  }
}
