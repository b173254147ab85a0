/**
 * Sets `key` in `map`, then drops the entry set longest ago once the map holds more than `limit`
 * (a key set again keeps its place): the memo of the embedded store's recent reads and of the
 * cursors signed lately. Returns `value`.
 */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): V {
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
  return value;
}
