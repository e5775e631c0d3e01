/**
 * How request values are read the way Bugzilla reads them: a list field accepts a single value or
 * a list, and a boolean accepts true, 1, "1" or "true".
 */

/** The value as a list: an array as it is, nothing (undefined, null or '') as [], anything else as [value]. */
export const asList = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value];

/** Whether the value is one of Bugzilla's spellings of true. */
export const truthy = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 'true';
