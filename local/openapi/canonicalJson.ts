/**
 * The same value with every object's keys in code-point order, so the document's text depends
 * only on its content, never on the order in which the generator happened to add things.
 */
export function canonicalJson<T>(value: T): T {
  if (Array.isArray(value)) return value.map(canonicalJson) as T;
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, item]) => [key, canonicalJson(item)])) as T;
}
