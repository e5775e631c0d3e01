import { RE2JS } from 're2js';

/**
 * Regular expressions that administrators save (a group's user_regexp, the emailregexp
 * parameter) are matched with RE2 (re2js, pure JavaScript), whose matching time is linear in the
 * input whatever the pattern. JavaScript's backtracking RegExp can take exponential time on
 * patterns such as `^(z+)+y`, and one such pattern in a group would stall every request of an
 * affected user and, Node being single-threaded, every other request of the same process.
 * RE2 refuses what it cannot match in linear time (backreferences, lookaround): such a pattern
 * is refused when it is saved. Bugzilla's MySQL REGEXP has no backreferences either.
 */
const compiled = new Map<string, RE2JS | null>();
const CACHE_LIMIT = 500;

function compile(pattern: string, caseInsensitive: boolean): RE2JS | null {
  const cacheKey = `${caseInsensitive ? 'i' : '-'}${pattern}`;
  if (compiled.has(cacheKey)) return compiled.get(cacheKey)!;
  let result: RE2JS | null;
  try {
    result = RE2JS.compile(pattern, caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0);
  } catch {
    result = null;
  }
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(cacheKey, result);
  return result;
}

/** Why a pattern cannot be saved, or null when it can. */
export function regexpProblem(pattern: string): string | null {
  try {
    RE2JS.compile(pattern);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : 'invalid regular expression';
  }
}

/** Unanchored search, as Perl's and MySQL's regexp matching; an invalid pattern matches nothing. */
export function safeRegexpTest(pattern: string, text: string, options: { caseInsensitive?: boolean } = {}): boolean {
  const regexp = compile(pattern, options.caseInsensitive ?? false);
  return regexp?.matcher(text).find() === true;
}
