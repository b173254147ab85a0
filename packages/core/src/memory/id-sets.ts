/** Indexes of record ids by a key (a webhook, a submission), each set dropped once it is empty. */

/** Adds `id` to the set of `key`. */
export function addTo<K>(index: Map<K, Set<string>>, key: K, id: string): void {
  const ids = index.get(key);
  if (ids) ids.add(id);
  else index.set(key, new Set([id]));
}

/** Removes `id` from the set of `key`, and the set once empty; whether `key` is gone from `index`. */
export function removeFrom<K>(index: Map<K, Set<string>>, key: K, id: string): boolean {
  const ids = index.get(key);
  if (ids?.delete(id) && ids.size === 0) index.delete(key);
  return !index.has(key);
}
