/**
 * Text that is not well-formed Unicode: a string (a value or a key) holding a lone surrogate.
 * MongoDB stores text as UTF-8, where such a string cannot be written: it comes back as U+FFFD, so
 * two values checked as different (slot ids, option values) are stored equal, and the embedded
 * store keeps what the other changed (decision 0822). HTTP refuses it in its body reader; core
 * refuses it at the door embedding code comes through (`checkedInput`), with the same words.
 */

export const MALFORMED_TEXT = 'is not well-formed Unicode text (it holds a lone surrogate)';

/** No lone surrogate in the text (`String.prototype.isWellFormed`, which ES2023's types do not know yet). */
export const isWellFormedText = (text: string): boolean => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** A member's path below `path`: `sections` at the root (`''`), `body.sections` below `body`. */
const memberPath = (path: string, key: string): string => (path === '' ? key : `${path}.${key}`);

/** Plain data a walk goes into: arrays and plain objects (not Dates, Maps, class instances). */
function isContainer(node: unknown): node is object {
  if (typeof node !== 'object' || node === null) return false;
  if (Array.isArray(node)) return true;
  const prototype: unknown = Object.getPrototypeOf(node);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The path (`sections[0].title` from the root `''`, `body.sections[0].title` from `body`) of the
 * first node of `value`, in document order, for which `found` answers a path, or undefined. It
 * keeps its own list of what is left to visit, so data nested thousands of levels deep is safe,
 * and visits a shared or circular part once. `found` sees each node before its children, an
 * object with its keys.
 */
export function firstPath(value: unknown, rootPath: string, found: (node: unknown, path: string) => string | undefined): string | undefined {
  const pending: { readonly node: unknown; readonly path: string }[] = [{ node: value, path: rootPath }];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const { node, path } = pending.pop()!;
    const hit = found(node, path);
    if (hit !== undefined) return hit;
    if (!isContainer(node) || seen.has(node)) continue;
    seen.add(node);
    if (Array.isArray(node)) {
      for (let index = node.length - 1; index >= 0; index -= 1) pending.push({ node: node[index], path: `${path}[${index}]` });
      continue;
    }
    const members = node as Record<string, unknown>;
    const keys = Object.keys(members);
    for (let index = keys.length - 1; index >= 0; index -= 1) pending.push({ node: members[keys[index]!], path: memberPath(path, keys[index]!) });
  }
  return undefined;
}

/** The path of the first string of `value`, a key or a value, that is not well-formed Unicode; a key is named with its surrogate escaped. */
export function malformedTextPath(value: unknown, rootPath = ''): string | undefined {
  return firstPath(value, rootPath, (node, path) => {
    if (typeof node === 'string') return isWellFormedText(node) ? undefined : path;
    if (!isContainer(node) || Array.isArray(node)) return undefined;
    const key = Object.keys(node).find((name) => !isWellFormedText(name));
    return key === undefined ? undefined : memberPath(path, JSON.stringify(key).slice(1, -1));
  });
}
