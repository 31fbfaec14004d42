/**
 * Maps kept in the order their keys were last used (a Map iterates in insertion order): `used` moves a
 * key to the end, `dropOldest` lets go of the first keys beyond a bound. Values are never undefined.
 */

/** The key's value, its key now the most recently used; undefined when it has none. */
export function used<K, V>(map: Map<K, V>, key: K): V | undefined {
  const value = map.get(key);
  if (value !== undefined) {
    map.delete(key);
    map.set(key, value);
  }
  return value;
}

/** Lets go of the least recently used entries until at most `max` are left, handing each to `dropped`. */
export function dropOldest<K, V>(map: Map<K, V>, max: number, dropped?: (value: V) => void): void {
  for (const [key, value] of map) {
    if (map.size <= max) break;
    map.delete(key);
    dropped?.(value);
  }
}
