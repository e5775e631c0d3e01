import { errors } from '../errors.ts';
import type { TrackerError } from '../trackerError.ts';

/**
 * Limits every request's parameters must respect, whatever the endpoint, so no input can make a
 * stored item exceed DynamoDB's 400 KB (a 500 otherwise) or cost unbounded work:
 * - a text value has at most MAX_TEXT_LENGTH characters: Bugzilla's longest free text (a
 *   comment, a description) is 65,535; shorter limits (names: 64 or 255) are checked by the
 *   domain rules of each field;
 * - no text contains NUL or an unpaired surrogate;
 * - a list has at most MAX_LIST_LENGTH entries, and values nest at most MAX_DEPTH deep.
 * The error names the parameter, as Bugzilla's do. An endpoint that takes a long value (an
 * attachment's `data`, a comment) names it in `longText`: its length is left to the endpoint,
 * whose rules give the error Bugzilla gives (114 for a comment); its characters are checked here.
 */
export const MAX_TEXT_LENGTH = 65_535;
export const MAX_LIST_LENGTH = 10_000;
export const MAX_DEPTH = 16;

/** An unpaired UTF-16 surrogate: not a character, and not storable as UTF-8. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The number of characters (Unicode code points) in a text, as Bugzilla counts them: `length`
 * counts UTF-16 units, so an emoji or a rare CJK character would count twice against a limit.
 */
export function characterCount(text: string): number {
  let count = text.length;
  for (let at = 0; at < text.length - 1; at++) {
    const unit = text.charCodeAt(at);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--;
        at++;
      }
    }
  }
  return count;
}

/** The error for a text no request may carry (NUL, an unpaired surrogate), naming the parameter. */
export function checkTextCharacters(path: string, value: string): void {
  // NUL and broken UTF-16 are never text anyone means to send; both break consumers downstream.
  if (value.includes('\u0000') || LONE_SURROGATE.test(value))
    throw errors.invalidParameter(
      `The value of '${path}' contains a NUL character or an unpaired surrogate, which Tracker does not accept.`,
    );
}

const tooLong = (path: string, limit: number, length: number) =>
  errors.invalidParameter(
    `The value of '${path}' is too long: at most ${limit} characters are allowed, and it has ${length}.`,
  );

export function checkInputLimits(
  params: Record<string, unknown>,
  options: { longText?: readonly string[] } = {},
): void {
  const visit = (value: unknown, path: string, depth: number, anyLength: boolean): void => {
    if (typeof value === 'string') {
      if (!anyLength && value.length > MAX_TEXT_LENGTH) {
        const characters = characterCount(value);
        if (characters > MAX_TEXT_LENGTH) throw tooLong(path, MAX_TEXT_LENGTH, characters);
      }
      checkTextCharacters(path, value);
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
        visit(entry, `${path}.${index}`, depth + 1, anyLength);
      });
      return;
    }
    const entries = Object.entries(value);
    if (entries.length > MAX_LIST_LENGTH)
      throw errors.invalidParameter(
        `The value of '${path}' has too many members: at most ${MAX_LIST_LENGTH} are allowed.`,
      );
    for (const [key, entry] of entries) visit(entry, path ? `${path}.${key}` : key, depth + 1, anyLength);
  };
  for (const [name, value] of Object.entries(params)) visit(value, name, 0, options.longText?.includes(name) ?? false);
}

/** A short text attribute (Bugzilla's TINYTEXT/varchar(255) columns and the like). */
export function checkTextLength(value: string, parameter: string, limit: number): string {
  const characters = characterCount(value);
  if (characters > limit) throw tooLong(parameter, limit, characters);
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

/**
 * At most this many values (object members and list entries, at every depth) in a request body.
 * A request needs far fewer (a full 10,000-entry list is one parameter); the bound keeps what
 * parsing and checking a body can cost, before anyone is authenticated, to a few milliseconds.
 */
export const MAX_BODY_VALUES = 50_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/** Where the string starting after an opening quote ends (its closing quote, or the end of the text). */
function stringEnd(text: string, start: number): number {
  let from = start;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 >= start && text.charCodeAt(quote - backslashes - 1) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

function memberName(raw: string): string {
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

/**
 * Checks a JSON text against the limits above before it is parsed: nesting (MAX_DEPTH below the
 * body), entries in each object or list (MAX_LIST_LENGTH, the body's own members included) and
 * values in all (MAX_BODY_VALUES). One pass over the characters, building nothing and stopping at
 * the first excess: a body of a million members is refused in microseconds, where JSON.parse would
 * take seconds to build it. Syntax is JSON.parse's business: what is not JSON passes here and is
 * refused there. Returns the names of the top-level members, so that whether a body carries
 * credentials can be known without parsing it.
 */
export function checkJsonTextLimits(text: string): { memberNames: string[] } {
  const memberNames: string[] = [];
  /** Separators seen in each open object or list, innermost last. */
  const separators: number[] = [];
  let values = 0;
  let bodyIsObject = false;
  let expectingName = false;
  const countValue = () => {
    if (++values > MAX_BODY_VALUES)
      throw errors.invalidParameter(`The request body has more than ${MAX_BODY_VALUES} values in all.`);
  };
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      const end = stringEnd(text, at + 1);
      if (expectingName && separators.length === 1) memberNames.push(memberName(text.slice(at + 1, end)));
      expectingName = false;
      at = end;
    } else if (code === OPEN_OBJECT || code === OPEN_LIST) {
      // The body itself is one level more than checkInputLimits counts (it starts at a parameter).
      if (separators.length > MAX_DEPTH)
        throw errors.invalidParameter(`The request body is nested too deeply (at most ${MAX_DEPTH} levels).`);
      if (separators.length === 0) {
        bodyIsObject = code === OPEN_OBJECT;
        expectingName = bodyIsObject;
      }
      separators.push(0);
      countValue();
    } else if (code === CLOSE_OBJECT || code === CLOSE_LIST) {
      separators.pop();
    } else if (code === COMMA && separators.length > 0) {
      if (++separators[separators.length - 1] >= MAX_LIST_LENGTH)
        throw errors.invalidParameter(
          `The request body has an object or list with more than ${MAX_LIST_LENGTH} entries, the most allowed.`,
        );
      countValue();
      expectingName = separators.length === 1 && bodyIsObject;
    }
  }
  return { memberNames };
}
