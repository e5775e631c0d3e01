/**
 * How request values are read the way Bugzilla reads them: a list field accepts a single value or
 * a list, and a boolean accepts true, 1, "1" or "true".
 */

/** The value as a list: an array as it is, nothing (undefined, null or '') as [], anything else as [value]. */
export const asList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];

/**
 * A boolean input as Bugzilla 5.2 takes it, the one reading every boolean parameter goes through
 * (REST JSON and query text, JSON-RPC, XML-RPC `<int>` and `<boolean>`): true, 1, "1", "true"
 * are true; false, 0, "0", "false" and "" are false (a repeated query key counts by its last
 * value). Anything else is not a boolean (undefined).
 */
export function booleanOf(value: unknown): boolean | undefined {
  const single = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof single === 'boolean') return single;
  if (single === 1 || single === 0) return single === 1;
  if (typeof single === 'string') {
    const lowered = single.trim().toLowerCase();
    if (lowered === '1' || lowered === 'true') return true;
    if (lowered === '0' || lowered === 'false' || lowered === '') return false;
  }
  return undefined;
}

/** Whether the value is one of Bugzilla's spellings of true (booleanOf). */
export const truthy = (value: unknown): boolean => booleanOf(value) === true;
