/**
 * Filter equalities that match a stored value member by member. A filter that names an embedded
 * document whole (`{ config: {...} }`) matches on a MongoDB server only when the stored members
 * are in the same order, which a document written by an earlier version, by another tool or by a
 * `$set` of a member the document did not have yet need not keep: a conditional write on such a
 * document would refuse every attempt, and its caller would get 412 forever. Dotted equalities
 * (`config.templateId`, `config.slots.0.span`) do not depend on that order; an array also has
 * its length compared, so a stored list with more items does not match a shorter one read.
 */

export type MemberwiseFilter = Record<string, unknown>;

/** Adds to `filter` the equalities that `value`, stored at `path`, matches, and returns it. */
export function memberwiseEqualities(path: string, value: unknown, filter: MemberwiseFilter = {}): MemberwiseFilter {
  if (Array.isArray(value)) {
    filter[path] = { $size: value.length };
    value.forEach((item, index) => memberwiseEqualities(`${path}.${index}`, item, filter));
  } else if (isPlainObject(value)) {
    for (const [key, member] of Object.entries(value)) memberwiseEqualities(`${path}.${key}`, member, filter);
  } else {
    // `undefined` is not a value a filter can hold; a member read as absent is matched as null,
    // which a server also matches against a missing member.
    filter[path] = value ?? null;
  }
  return filter;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
