/**
 * The representation differences between a Bugzilla source (5.0, 5.2, Harmony/BMO, Tracker) and
 * a Tracker target that say nothing about the data, each named so the comparisons can say which
 * ones they apply. Every normalisation only makes two spellings of the same value equal; none
 * drops a value, so a real difference (another login, one cc more, a different time) still shows.
 */

/**
 * EMPTY: Bugzilla 5.x sends "" where Tracker sends null for "nothing" (`qa_contact`,
 * `target_milestone` in some products, `deadline`), [] where Tracker sends null (`alias`, and
 * `duplicates`/`regressed_by`, which 5.x does not know at all): "", [], null and absent are one
 * value. 0 and false are not empty.
 */
const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/**
 * TIMES: Bugzilla writes `2026-11-22T08:24:31Z`; another writer may add milliseconds or an
 * offset for the same instant. Strings that are ISO 8601 date-times compare as instants (a date
 * alone, like `deadline`, stays a string: it has no instant).
 */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * SETS: every list a bug has is a set in Bugzilla (cc, keywords, groups, blocks, depends_on,
 * see_also, aliases, duplicates, regressions, tags, multi-select custom fields), sent in the order
 * its tables happen to return rows, which differs between installations: lists compare sorted.
 * Repeated entries are kept, so a duplicated cc is still a difference.
 */
const compareCanonical = (a: unknown, b: unknown): number => {
  const left = JSON.stringify(a);
  const right = JSON.stringify(b);
  return left < right ? -1 : left > right ? 1 : 0;
};

/** A value in the one spelling verification compares: EMPTY, TIMES and SETS applied, deeply. */
export function canonical(value: unknown): unknown {
  if (isEmpty(value)) return null;
  if (Array.isArray(value)) return value.map(canonical).sort(compareCanonical);
  if (typeof value === 'string' && ISO_DATE_TIME.test(value)) {
    const instant = Date.parse(value);
    return Number.isNaN(instant) ? value : new Date(instant).toISOString();
  }
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => [key, canonical((value as Record<string, unknown>)[key])] as const)
      .filter(([, item]) => item !== null);
    return entries.length === 0 ? null : Object.fromEntries(entries);
  }
  return value;
}

/**
 * BOOLEANS: Bugzilla 5.2 sends true/false on bugs but 0/1 on attachments, older answers "0"/"1";
 * Tracker sends true/false. NUMBERS: time-tracking hours may come as "1.50" or 1.5. Both apply
 * only when one side holds the boolean or number, so a text that happens to read "1" is never
 * equal to a text "true".
 */
const BOOLISH = new Set<unknown>([true, false, 0, 1, '0', '1']);
const truthy = (value: unknown) => value === true || value === 1 || value === '1';
const numeric = (value: unknown) =>
  typeof value === 'number' || (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value));

/** Whether two values are the same after every normalisation above. */
export function sameValue(source: unknown, target: unknown): boolean {
  const left = canonical(source);
  const right = canonical(target);
  if (JSON.stringify(left) === JSON.stringify(right)) return true;
  if (typeof left === 'boolean' || typeof right === 'boolean')
    return BOOLISH.has(left) && BOOLISH.has(right) && truthy(left) === truthy(right);
  if (typeof left === 'number' || typeof right === 'number')
    return numeric(left) && numeric(right) && Number(left) === Number(right);
  return false;
}
