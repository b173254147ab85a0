/**
 * Part of the TEST DOUBLE (mingo-collection-double.ts): does a declared index serve a query, as
 * MongoDB's planner would use it? The rule (issue 18 item 2, decision 0751):
 * - a field is *bound* by a filter when it has an equality (`v`, `$eq`, a one-value `$in`) or a
 *   range (`$gt`, `$gte`, `$lt`, `$lte`, a longer `$in`); equality fields are *pinned*;
 * - an index serves a filter when its first key is bound (an index scan with bounds, never a
 *   collection scan); fields the index does not hold are then filtered on the fetched documents;
 * - with a sort, the index must also give the order: walking its keys, each key is either the next
 *   sort field (all directions as declared, or all reversed) or a pinned field, until every sort
 *   field not pinned has been met; and it must hold every field the filter pins, or a page would
 *   read every record the index walks past (a mutation audit, 2026-12-04: a list of one author's
 *   articles was "served" by the tenant's list index, so dropping its own index went unnoticed).
 *   An empty filter with a sort the index gives is a full index scan in order (a deliberate
 *   listing), not a collection scan;
 * - a top-level `$or` is served when the rest of the filter is, or else when every branch (with
 *   the rest) is, as the planner's OR plan needs; `$and` clauses are read as one filter;
 * - `$nor`, `$expr`, `$where`, `$text`, `$ne`, `$nin`, `$exists`, `$regex`, `$not` bind nothing;
 * - a sparse index leaves out the documents that lack its fields, so it serves a filter only when
 *   every one of its fields is bound by a condition a missing field cannot meet (an equality or
 *   range on a value other than null), as the planner requires;
 * - a wildcard index (`relations.$**`, its one key) serves a filter that binds a path under it
 *   (`relations.links`) with a condition a missing field cannot meet, as the planner requires
 *   (it holds no entry for a document without the path), and no sort.
 * Returns null when an index serves the query, else why none does.
 */
import type { Document } from 'mongodb';

export type SortSpec = Readonly<Record<string, unknown>>;

export interface IndexShape {
  readonly name: string;
  readonly keys: Readonly<Record<string, unknown>>;
  readonly sparse?: boolean;
}

/** Whether a query's `hint` names `index`: by its name, or by its keys in order. */
export function hintNames(hint: string | Document, index: IndexShape): boolean {
  return typeof hint === 'string' ? index.name === hint : JSON.stringify(index.keys) === JSON.stringify(hint);
}

const RANGE = ['$gt', '$gte', '$lt', '$lte'];

interface Bounds {
  readonly pinned: Set<string>;
  readonly bound: Set<string>;
  /** Bound by a condition that a document without the field cannot meet. */
  readonly present: Set<string>;
  readonly empty: boolean;
}

const isOperatorObject = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).some((key) => key.startsWith('$'));

function boundsOf(filter: Document, into: Bounds = { pinned: new Set(), bound: new Set(), present: new Set(), empty: true }): Bounds {
  let empty = into.empty;
  for (const [path, condition] of Object.entries(filter)) {
    if (path === '$and' && Array.isArray(condition)) {
      for (const clause of condition) empty = boundsOf(clause as Document, { ...into, empty }).empty;
      continue;
    }
    empty = false;
    if (path.startsWith('$')) continue;
    if (!isOperatorObject(condition)) {
      into.pinned.add(path);
      into.bound.add(path);
      if (condition !== null) into.present.add(path);
      continue;
    }
    const operators = Object.keys(condition);
    const inValues = Array.isArray(condition.$in) ? condition.$in.length : -1;
    if (operators.includes('$eq') || inValues === 1) into.pinned.add(path);
    if (operators.includes('$eq') || inValues >= 1 || operators.some((operator) => RANGE.includes(operator))) into.bound.add(path);
    const bounding = operators.filter((operator) => operator === '$eq' || operator === '$in' || RANGE.includes(operator));
    const nullFree = (operator: string) => (operator === '$in' ? !(condition.$in as unknown[]).includes(null) : condition[operator] !== null);
    if (bounding.length > 0 && bounding.every(nullFree)) into.present.add(path);
  }
  return { ...into, empty };
}

function serves(index: IndexShape, bounds: Bounds, sort: ReadonlyArray<readonly [string, unknown]>): boolean {
  const keys = Object.entries(index.keys);
  const wildcard = keys[0]?.[0].endsWith('.$**') ? keys[0][0].slice(0, -'$**'.length) : undefined;
  if (wildcard !== undefined) return sort.length === 0 && [...bounds.present].some((path) => path.startsWith(wildcard) && path.length > wildcard.length);
  if (index.sparse && !keys.every(([key]) => bounds.present.has(key))) return false;
  const first = keys[0]?.[0];
  const scans = (first !== undefined && bounds.bound.has(first)) || bounds.empty;
  // A sorted query reads a page: a field it pins that the index does not hold would be filtered
  // on fetched documents, so the page would cost as many reads as the records the index walks
  // past (every record of the tenant, for a list filtered by author), not as many as it answers.
  if (sort.length > 0 && [...bounds.pinned].some((field) => !keys.some(([key]) => key === field))) return false;
  const wanted = sort.filter(([field]) => !bounds.pinned.has(field));
  if (wanted.length === 0) return first !== undefined && bounds.bound.has(first);
  let next = 0;
  let reversed: boolean | undefined;
  for (const [key, direction] of keys) {
    if (next === wanted.length) break;
    const [field, order] = wanted[next]!;
    if (key === field && typeof direction === 'number' && (order === 1 || order === -1)) {
      const flips = direction !== order;
      if (reversed !== undefined && reversed !== flips) return false;
      reversed = flips;
      next += 1;
    } else if (!bounds.pinned.has(key)) {
      return false;
    }
  }
  return next === wanted.length && scans;
}

function served(indexes: readonly IndexShape[], filter: Document, sort: ReadonlyArray<readonly [string, unknown]>): boolean {
  const { $or, ...rest } = filter;
  const bounds = boundsOf(rest);
  if (indexes.some((index) => serves(index, bounds, sort))) return true;
  if (!Array.isArray($or) || $or.length === 0) return false;
  return $or.every((branch: Document) => {
    const merged = boundsOf(branch as Document, { pinned: new Set(bounds.pinned), bound: new Set(bounds.bound), present: new Set(bounds.present), empty: bounds.empty });
    return indexes.some((index) => serves(index, merged, sort));
  });
}

/** Field names and operators only, never values: what a failure message shows. */
export function shapeOf(filter: Document): string {
  const parts = Object.entries(filter).map(([path, condition]) => {
    if (Array.isArray(condition)) return `${path}: [${condition.map((clause: Document) => shapeOf(clause)).join(', ')}]`;
    return isOperatorObject(condition) ? `${path}: {${Object.keys(condition).join(', ')}}` : `${path}: =`;
  });
  return `{${parts.join(', ')}}`;
}

/** Null when one of `indexes` serves `filter` sorted by `sort`; else a sentence saying why not. */
export function unservedQuery(indexes: readonly IndexShape[], filter: Document, sort: SortSpec | undefined): string | null {
  const order = Object.entries(sort ?? {});
  if (served(indexes, filter, order)) return null;
  const declared = indexes.map((index) => `${index.name} ${JSON.stringify(index.keys)}`).join(', ');
  return `no index serves filter ${shapeOf(filter)}${order.length ? ` sort ${JSON.stringify(sort)}` : ''} (indexes: ${declared})`;
}

/** The filter and sort an aggregation's leading `$match` and `$sort` give the planner. */
export function unservedPipeline(indexes: readonly IndexShape[], pipeline: readonly Document[]): string | null {
  const [first, second] = pipeline;
  const filter = (first?.$match as Document | undefined) ?? {};
  const sortStage = first?.$match ? second?.$sort : first?.$sort;
  if (!first?.$match && !first?.$sort) return `the pipeline starts with neither $match nor $sort, so it scans the collection: ${JSON.stringify(Object.keys(first ?? {}))}`;
  return unservedQuery(indexes, filter, sortStage as SortSpec | undefined);
}
