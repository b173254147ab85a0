/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): the rules MongoDB applies to an update
 * before running it — operators only, no conflicting paths, array operators only onto arrays,
 * `$inc` only onto numbers, no field created inside a value that cannot hold one — and how an
 * upsert seeds its new document from the filter.
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

const ARRAY_OPERATORS = ['$addToSet', '$push', '$pull'] as const;
const NUMERIC_OPERATORS = ['$inc', '$mul'] as const;
/** Operators that create their field when it is missing, and so the documents on its path. */
const CREATING_OPERATORS = ['$set', '$inc', '$mul', '$min', '$max', '$addToSet', '$push'] as const;

const typeName = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/**
 * What MongoDB refuses of an update on a stored document, where mingo changes nothing (or, for a
 * path through `null`, makes up an object) without a word, which would hide an adapter bug that
 * fails in production (a Mongo audit, 2026-12-03):
 * - an array operator on a field that exists and is not an array, null included: code 2
 *   (`Cannot apply $pull to a non-array value`, and `$addToSet`'s own words);
 * - `$inc` or `$mul` on a field that exists and is not a number: code 14 (TypeMismatch);
 * - a field created inside a value that is not a document (a string, a number, null), or under
 *   a non-numeric name inside an array: code 28 (PathNotViable).
 */
export function assertApplicable(document: Document, modifier: Document): void {
  for (const operator of ARRAY_OPERATORS) {
    for (const path of Object.keys((modifier[operator] as Document | undefined) ?? {})) {
      const value = valueAt(document, path);
      if (value === undefined || Array.isArray(value)) continue;
      const field = path.split('.').pop();
      if (operator === '$addToSet') throw new ServerDoubleError(2, `Cannot apply $addToSet to non-array field. Field named '${field}' has non-array type ${typeName(value)}`);
      if (operator === '$pull') throw new ServerDoubleError(2, 'Cannot apply $pull to a non-array value');
      throw new ServerDoubleError(2, `The field '${field}' must be an array but is of type ${typeName(value)} in document {_id: ${String(document._id)}}`);
    }
  }
  for (const operator of NUMERIC_OPERATORS) {
    for (const path of Object.keys((modifier[operator] as Document | undefined) ?? {})) {
      const value = valueAt(document, path);
      if (value !== undefined && typeof value !== 'number' && !isBsonNumber(value)) {
        throw new ServerDoubleError(14, `Cannot apply ${operator} to a value of non-numeric type. {_id: ${String(document._id)}} has the field '${path.split('.').pop()}' of non-numeric type ${typeName(value)}`);
      }
    }
  }
  for (const operator of CREATING_OPERATORS) {
    for (const path of Object.keys((modifier[operator] as Document | undefined) ?? {})) assertViablePath(document, path);
  }
}

/** Long, Double, Int32 and Decimal128 of the driver's BSON types count as numbers, as on the server. */
const isBsonNumber = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && ['Long', 'Double', 'Int32', 'Decimal128'].includes((value as { _bsontype?: string })._bsontype ?? '');

/**
 * Throws code 28 when a field of `path` would have to be created inside something that is not a
 * document (a string, a number, null), or under a non-numeric name inside an array, naming the
 * first such field and the element it meets, as the server does.
 */
function assertViablePath(document: Document, path: string): void {
  const segments = path.split('.');
  let node: unknown = document;
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!;
    if (isPlainObject(node)) {
      if (!Object.hasOwn(node, segment)) return; // created from here down: fine
      node = node[segment];
    } else if (Array.isArray(node) && /^\d+$/.test(segment)) {
      node = node[Number(segment)];
    } else if (node !== undefined && index > 0) {
      throw new ServerDoubleError(28, `Cannot create field '${segment}' in element {${segments[index - 1]}: ${JSON.stringify(node)}}`);
    }
    if (node === undefined) return;
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
