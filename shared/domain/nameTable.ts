/**
 * A lookup table for names that come from requests. A plain object literal answers
 * `constructor`, `toString` or `__proto__` from Object.prototype (a search for `?constructor=`
 * once reached a 500 that way); this one has no prototype, so unknown names are undefined.
 */
export function nameTable<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
