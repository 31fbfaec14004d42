/**
 * A fixed table looked up by a name that comes from a request, a definition, an upload or the
 * database: it has no prototype, so `constructor`, `toString` or `__proto__` find nothing instead of
 * Object's own members. Frozen, as every such table is read only.
 */
export function namedTable<T extends Record<string, unknown>>(entries: T): T {
  return Object.freeze(Object.assign(Object.create(null) as T, entries));
}
