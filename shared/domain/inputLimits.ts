import { errors } from '../errors.ts';
import type { TrackerError } from '../trackerError.ts';

/**
 * Limits every request's parameters must respect, whatever the endpoint, so no input can make a
 * stored item exceed DynamoDB's 400 KB (a 500 otherwise) or cost unbounded work:
 * - a text value has at most MAX_TEXT_LENGTH characters: Bugzilla's longest free text (a
 *   comment, a description) is 65,535; shorter limits (names: 64 or 255) are checked by the
 *   domain rules of each field;
 * - a list has at most MAX_LIST_LENGTH entries, and values nest at most MAX_DEPTH deep.
 * The error names the parameter, as Bugzilla's do. An endpoint that takes a long value (an
 * attachment's `data`) names it in `longText`: that parameter is left to the endpoint.
 */
export const MAX_TEXT_LENGTH = 65_535;
export const MAX_LIST_LENGTH = 10_000;
export const MAX_DEPTH = 16;

/** An unpaired UTF-16 surrogate: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const tooLong = (path: string, limit: number, length: number) =>
  errors.invalidParameter(
    `The value of '${path}' is too long: at most ${limit} characters are allowed, and it has ${length}.`,
  );

export function checkInputLimits(
  params: Record<string, unknown>,
  options: { longText?: readonly string[] } = {},
): void {
  const visit = (value: unknown, path: string, depth: number): void => {
    if (typeof value === 'string') {
      if (value.length > MAX_TEXT_LENGTH) throw tooLong(path, MAX_TEXT_LENGTH, value.length);
      // NUL and broken UTF-16 are never text anyone means to send; both break consumers downstream.
      if (value.includes('\u0000') || LONE_SURROGATE.test(value)) {
        throw errors.invalidParameter(
          `The value of '${path}' contains a NUL character or an unpaired surrogate, which Tracker does not accept.`,
        );
      }
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (depth >= MAX_DEPTH)
      throw errors.invalidParameter(`The value of '${path}' is nested too deeply (at most ${MAX_DEPTH} levels).`);
    if (Array.isArray(value)) {
      if (value.length > MAX_LIST_LENGTH)
        throw errors.invalidParameter(
          `The list '${path}' is too long: at most ${MAX_LIST_LENGTH} entries are allowed.`,
        );
      value.forEach((entry, index) => {
        visit(entry, `${path}.${index}`, depth + 1);
      });
      return;
    }
    const entries = Object.entries(value);
    if (entries.length > MAX_LIST_LENGTH)
      throw errors.invalidParameter(
        `The value of '${path}' has too many members: at most ${MAX_LIST_LENGTH} are allowed.`,
      );
    for (const [key, entry] of entries) visit(entry, path ? `${path}.${key}` : key, depth + 1);
  };
  for (const [name, value] of Object.entries(params)) {
    if (options.longText?.includes(name)) continue;
    visit(value, name, 0);
  }
}

/** A short text attribute (Bugzilla's TINYTEXT/varchar(255) columns and the like). */
export function checkTextLength(value: string, parameter: string, limit: number): string {
  if (value.length > limit) throw tooLong(parameter, limit, value.length);
  return value;
}

/**
 * Characters a name must not contain, though free text may: control characters (C0 including tab
 * and newline, DEL, C1), line and paragraph separators, and the bidirectional formatting
 * characters, with which a name can display as another (`\u202E` reverses what follows).
 */
const NOT_IN_NAMES = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

/**
 * Refuses a name (of a product, group, user, ...) containing invisible or deceptive characters;
 * `refuse` is the error of the field where the spec gives one (501 for an e-mail address).
 */
export function checkNameCharacters(
  name: string,
  what: string,
  refuse: (message: string) => TrackerError = errors.invalidParameter,
): string {
  const found = NOT_IN_NAMES.exec(name) ?? LONE_SURROGATE.exec(name);
  if (found) {
    const point = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw refuse(`The ${what} must not contain control or text-direction characters (it contains U+${point}).`);
  }
  return name;
}
