import { errors } from '../../errors.ts';
import { faultOf, invalidValue, shown } from './xmlRpcFaults.ts';

/**
 * The text of a scalar XML-RPC value, read as Bugzilla 5.2 reads it (Bugzilla::XMLRPC::Deserializer
 * in WebService/Server/XMLRPC.pm, which validates with XMLRPC::Lite's patterns), into the JSON value
 * the REST API takes. A value its type does not allow is Bugzilla's xmlrpc_invalid_value fault.
 * Surrounding whitespace is ignored in numbers, booleans and times (clients that pretty-print put
 * some there); a string keeps all of its text.
 */

const INTEGER = /^[+-]?\d+$/;
const I4_MIN = -(2 ** 31);
const I4_MAX = 2 ** 31 - 1;
/** XMLRPC::Lite's double pattern, without its redundant alternatives. */
const DOUBLE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * `<int>`, `<i4>`, `<i8>`. An `<i4>` is 32 bits, as the XML-RPC specification says; `<int>` and
 * `<i8>` (Apache's and Python's extension for larger numbers) may be any integer JavaScript holds
 * exactly, since ids and counts are never larger. An empty one is null: Bugzilla's documented
 * extension ("Undefined Values" in XMLRPC.pm's POD), for int, double and dateTime.iso8601.
 */
export function integerValue(type: string, raw: string): number | null {
  const text = raw.trim();
  if (text === '') return null;
  if (!INTEGER.test(text)) throw invalidValue(type, raw);
  const value = Number(text) + 0; // `+ 0` turns -0 into 0
  const fits = type === 'i4' ? value >= I4_MIN && value <= I4_MAX : Number.isSafeInteger(value);
  if (!fits) throw invalidValue(type, raw);
  return value;
}

export function doubleValue(raw: string): number | null {
  const text = raw.trim();
  if (text === '') return null;
  const value = Number(text);
  if (!DOUBLE.test(text) || !Number.isFinite(value)) throw invalidValue('double', raw);
  return value + 0;
}

/** Only 0 and 1, as Bugzilla's validator (`/^[01]$/`) and the specification allow. */
export function booleanValue(raw: string): boolean {
  const text = raw.trim();
  if (text === '1') return true;
  if (text === '0') return false;
  throw invalidValue('boolean', raw);
}

/**
 * A time in any of the forms clients send: the specification's `20250304T05:06:07`, Bugzilla's
 * documented `2025-03-04T05:06:07`, the compact `20250304T050607`, with optional fractions of a
 * second (dropped, as Bugzilla's columns hold seconds) and an optional zone (`Z`, `+01:00`,
 * `-0500`, `+01`). Without a zone the time is UTC, as Bugzilla takes it ("If no timezone specifier
 * is included, the passed-in time is assumed to be in the UTC timezone"). The result is the REST
 * API's UTC time text. A text of another shape is the xmlrpc_invalid_value fault; one of the right
 * shape naming no real instant (February 30th, 25:00) is Bugzilla's illegal_date error (56).
 */
const DATE_TIME =
  /^(\d{4})(-?)(\d{2})\2(\d{2})T(\d{2})(:?)(\d{2})\6(\d{2})(?:[.,]\d+)?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?)?$/i;

export function dateTimeValue(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  const parts = DATE_TIME.exec(text);
  if (!parts) throw invalidValue('dateTime.iso8601', raw);
  const [year, month, day, hour, minute, second] = [1, 3, 4, 5, 7, 8].map((index) => Number(parts[index]));
  const sign = parts[10] === '-' ? -1 : 1;
  const offsetHours = Number(parts[11] ?? 0);
  const offsetMinutes = Number(parts[12] ?? 0);
  const illegal = () => faultOf(errors.invalidDate(`'${shown(raw)}' is not a legal date.`));
  if (
    year === 0 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > daysInMonth(year, month) ||
    hour > 23 ||
    minute > 59 ||
    second > 59 ||
    offsetHours > 23 ||
    offsetMinutes > 59
  )
    throw illegal();
  const instant = new Date(0);
  instant.setUTCFullYear(year, month - 1, day);
  instant.setUTCHours(hour, minute - sign * (offsetHours * 60 + offsetMinutes), second);
  const utcYear = instant.getUTCFullYear();
  if (utcYear < 1 || utcYear > 9999) throw illegal();
  return `${instant.toISOString().slice(0, 19)}Z`;
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}

/**
 * Base64 stays base64, as the REST API's attachment `data` holds it, without the line breaks
 * clients put in it. The check is attachment.ts's (no repeated group: a pattern like `(?:….{4})*`
 * overflows V8's stack on a multi-megabyte value), so what passes here passes there; Perl's
 * decoder would skip what is not base64, which would store a file other than the one sent.
 */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function isBase64Text(text: string): boolean {
  return BASE64.test(text) && (text.endsWith('=') ? text.length % 4 === 0 : text.length % 4 !== 1);
}

export function base64Value(raw: string): string {
  const compact = raw.replace(/[\t\n\r ]+/g, '');
  if (!isBase64Text(compact)) throw invalidValue('base64', raw);
  return compact;
}
