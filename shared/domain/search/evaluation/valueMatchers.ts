/**
 * The tests of one value (a text, a number, a time) that each operator means, shared by every
 * field of that kind; negation is the caller's. Also Bugzilla's relative dates (`-1d`, `Now`).
 */
import { errors } from '../../../errors.ts';
import { regexpProblem, safeRegexpTest } from '../../safeRegexp.ts';
import { isCalendarDate, isLegalTime } from '../../time.ts';

const WORD_SPLIT = /[\s,]+/;
export const wordsOf = (value: string) => value.toLowerCase().split(WORD_SPLIT).filter(Boolean);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A user's pattern, matched with RE2 (safeRegexp.ts): linear time whatever the pattern, so one
 * search with a pathological regexp cannot stall the instance over 100,000 rows. Patterns RE2
 * cannot run (backreferences, lookaround; MySQL's REGEXP has none either) are refused.
 */
function compileRegExp(value: string): (text: string) => boolean {
  const problem = regexpProblem(value);
  if (problem) throw errors.invalidParameter(`The regular expression '${value}' is not valid: ${problem}`);
  return (text) => safeRegexpTest(value, text, { caseInsensitive: true });
}

/**
 * Bugzilla's relative dates (`-1d`, `-2w`, `-3h`, `-1m`, `-1y`, `Now`) and absolute ones, in ms.
 * Whatever names no instant of years 0001–9999 (an overflowing `-1000000000w`, `2024-02-30`,
 * year 10000) is Bugzilla's illegal date (56): a bound that no bug passes would answer an empty
 * list instead of saying the date is wrong.
 */
export function parseSearchTime(value: string, now: number): number {
  const text = value.trim();
  if (text === '') return Number.NaN;
  const ms = searchTime(text, now);
  if (!isLegalTime(ms) || (/^\d{4}-\d{2}-\d{2}/.test(text) && !isCalendarDate(text)))
    throw errors.invalidDate(`'${value}' is not a legal date.`);
  return ms;
}

function searchTime(text: string, now: number): number {
  if (/^now$/i.test(text)) return now;
  const relative = /^([+-]?)(\d+)([hdwmy])(s?)$/i.exec(text);
  if (relative) return relativeTime(relative, now);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return Date.parse(`${text}T00:00:00Z`);
  if (/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text)) return Date.parse(`${text.replace(' ', 'T')}Z`);
  if (/^\d{8}T\d{2}:\d{2}:\d{2}$/.test(text)) {
    const dashed = `${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T${text.slice(9)}Z`;
    return isCalendarDate(dashed) ? Date.parse(dashed) : Number.NaN;
  }
  return Date.parse(text);
}

/**
 * Bugzilla's relative dates (Search.pm's SqlifyDate, in UTC where it uses the server's zone):
 * `-3d` is exactly three days ago, `-2h` two hours, `-1m`/`-1y` the same day and time a month or
 * a year ago; with an `s` (`-1ds`, `-1ws`, `-1ms`, `-1ys`, `-2hs`), or an amount of 0, the start
 * of that day, week (Sunday), month, year or hour. `+` counts forward.
 */
function relativeTime(match: RegExpExecArray, now: number): number {
  const amount = Number(match[2]) * (match[1] === '+' ? -1 : 1);
  const unit = match[3]!.toLowerCase();
  const startOf = match[4] !== '' || amount === 0;
  const date = new Date(now);
  switch (unit) {
    case 'h':
      date.setUTCHours(date.getUTCHours() - amount);
      if (startOf) date.setUTCMinutes(0, 0, 0);
      break;
    case 'd':
    case 'w': {
      const days = unit === 'w' ? 7 * amount + (startOf ? date.getUTCDay() : 0) : amount;
      date.setUTCDate(date.getUTCDate() - days);
      if (startOf) date.setUTCHours(0, 0, 0, 0);
      break;
    }
    case 'm':
      date.setUTCMonth(date.getUTCMonth() - amount, startOf ? 1 : date.getUTCDate());
      if (startOf) date.setUTCHours(0, 0, 0, 0);
      break;
    default:
      date.setUTCFullYear(date.getUTCFullYear() - amount);
      if (startOf) date.setUTCMonth(0, 1);
      if (startOf) date.setUTCHours(0, 0, 0, 0);
  }
  return date.getTime();
}

/** A test of one string value for a positive operator (negation is applied by the caller). */
export function textMatcher(op: string, value: string): (text: string) => boolean {
  const lower = value.toLowerCase();
  switch (op) {
    case 'equals':
      return (text) => text.toLowerCase() === lower;
    case 'anyexact': {
      const set = new Set(lower.split(',').map((part) => part.trim()));
      return (text) => set.has(text.toLowerCase());
    }
    case 'substring':
      return (text) => text.toLowerCase().includes(lower);
    case 'casesubstring':
      return (text) => text.includes(value);
    case 'anywordssubstr': {
      const words = wordsOf(value);
      return (text) => {
        const t = text.toLowerCase();
        return words.some((word) => t.includes(word));
      };
    }
    case 'allwordssubstr': {
      const words = wordsOf(value);
      return (text) => {
        const t = text.toLowerCase();
        return words.every((word) => t.includes(word));
      };
    }
    case 'regexp':
      return compileRegExp(value);
    case 'anywords':
    case 'allwords': {
      const patterns = wordsOf(value).map(
        (word) => new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(word)}($|[^\\p{L}\\p{N}_])`, 'iu'),
      );
      return op === 'anywords'
        ? (text) => patterns.some((pattern) => pattern.test(text))
        : (text) => patterns.length > 0 && patterns.every((pattern) => pattern.test(text));
    }
    case 'lessthan':
    case 'lessthaneq':
    case 'greaterthan':
    case 'greaterthaneq': {
      const numeric = value.trim() !== '' && Number.isFinite(Number(value));
      return (text) => {
        const order =
          numeric && text.trim() !== '' && Number.isFinite(Number(text))
            ? Math.sign(Number(text) - Number(value))
            : Math.sign(text.localeCompare(value));
        return op === 'lessthan'
          ? order < 0
          : op === 'lessthaneq'
            ? order <= 0
            : op === 'greaterthan'
              ? order > 0
              : order >= 0;
      };
    }
    case 'isempty':
      return (text) => text === '';
    case 'isnotempty':
      return (text) => text !== '';
    default:
      throw errors.invalidOperator(op);
  }
}

export function numberMatcher(op: string, value: string): (number: number) => boolean {
  if (
    ['lessthan', 'lessthaneq', 'greaterthan', 'greaterthaneq', 'equals'].includes(op) &&
    value.trim() !== '' &&
    Number.isFinite(Number(value))
  ) {
    const target = Number(value);
    if (op === 'equals') return (n) => n === target;
    return op === 'lessthan'
      ? (n) => n < target
      : op === 'lessthaneq'
        ? (n) => n <= target
        : op === 'greaterthan'
          ? (n) => n > target
          : (n) => n >= target;
  }
  const text = textMatcher(op, value);
  return (n) => text(String(n));
}

export function timeMatcher(op: string, value: string, now: number): (ms: number) => boolean {
  if (op === 'isempty') return (ms) => Number.isNaN(ms);
  if (op === 'isnotempty') return (ms) => !Number.isNaN(ms);
  if (['equals', 'lessthan', 'lessthaneq', 'greaterthan', 'greaterthaneq', 'anyexact'].includes(op)) {
    const targets = (op === 'anyexact' ? value.split(',') : [value]).map((part) => parseSearchTime(part, now));
    const target = targets[0];
    switch (op) {
      case 'equals':
        return (ms) => ms === target;
      case 'anyexact':
        return (ms) => targets.includes(ms);
      case 'lessthan':
        return (ms) => ms < target;
      case 'lessthaneq':
        return (ms) => ms <= target;
      case 'greaterthan':
        return (ms) => ms > target;
      default:
        return (ms) => ms >= target;
    }
  }
  const text = textMatcher(op, value);
  return (ms) => !Number.isNaN(ms) && text(new Date(ms).toISOString().replace('T', ' ').slice(0, 19));
}
