import { errors } from '../../errors.ts';
import type { CustomField } from '../catalog/customFields.ts';
import { EMPTY_SELECT_VALUE } from '../catalog/customFields.ts';
import { characterCount } from '../inputLimits.ts';
import { asList } from '../inputValues.ts';
import { isCalendarDate, isLegalTime } from '../time.ts';
import { MAX_ALIAS_LENGTH, MAX_SUMMARY_LENGTH, MAX_TIME, MAX_URL_LENGTH, MAX_WHITEBOARD_LENGTH } from './bug.ts';
import { FIELD_TYPE, type LegalValue } from './bugFields.ts';

/**
 * Checks of single bug field values shared by filing and updating a bug, each answering
 * Bugzilla's error code for that field and naming it.
 */

/** Control characters other than tab and newlines never belong in a bug's text. */
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

function checkText(field: string, value: unknown, maxLength: number): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string' && typeof value !== 'number')
    throw errors.invalidParameter(`The ${field} must be text.`);
  const text = String(value);
  if (CONTROL_CHARACTERS.test(text)) throw errors.invalidParameter(`The ${field} contains control characters.`);
  if (characterCount(text) > maxLength)
    throw errors.fieldTooLong(`The ${field} is too long: at most ${maxLength} characters.`);
  return text;
}

export function checkSummary(value: unknown): string {
  const summary = checkText('summary', value, MAX_SUMMARY_LENGTH)
    .replace(/[\r\n\t]+/g, ' ')
    .trim();
  if (summary === '') throw errors.summaryRequired();
  return summary;
}

export const checkUrl = (value: unknown): string => checkText('URL', value, MAX_URL_LENGTH).trim();
export const checkWhiteboard = (value: unknown): string => checkText('whiteboard', value, MAX_WHITEBOARD_LENGTH).trim();

/** An alias: not all digits, no commas or spaces, at most 40 characters; '' means none. */
export function checkAlias(value: unknown): string | null {
  const alias = checkText('alias', value, Number.MAX_SAFE_INTEGER).trim();
  if (alias === '') return null;
  if (characterCount(alias) > MAX_ALIAS_LENGTH)
    throw errors.invalidAlias(`The alias '${alias.slice(0, 50)}' is too long: at most ${MAX_ALIAS_LENGTH} characters.`);
  if (/^\d+$/.test(alias))
    throw errors.invalidAlias(
      `The alias '${alias}' is all digits: an alias must contain a letter so it cannot be mistaken for a bug id.`,
    );
  if (/[,\s]/.test(alias)) throw errors.invalidAlias(`The alias '${alias}' contains a comma or a space.`);
  return alias;
}

/** A value of a fixed list, matched without regard to case as Bugzilla's database does; unknown: 51. */
export function checkLegalValue(
  field: string,
  value: unknown,
  legal: readonly LegalValue[] | readonly string[],
): string {
  const text = String(value ?? '').trim();
  const names = legal.map((entry) => (typeof entry === 'string' ? entry : entry.name));
  const found = names.find((name) => name === text) ?? names.find((name) => name.toLowerCase() === text.toLowerCase());
  if (found === undefined) throw errors.notFoundByName(field, text);
  return found;
}

/**
 * Hours of time tracking: a number from 0 to 99999.99 (52 for text that is no number). Hours
 * worked may also be negative, down to -99999.99, to correct hours reported before.
 */
export function checkHours(field: string, value: unknown, options: { allowNegative?: boolean } = {}): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  // Bugzilla 5.2's number_not_numeric, number_too_small and number_too_large texts.
  if (!Number.isFinite(number))
    throw errors.invalidValue(`The value '${String(value)}' in the ${field} field is not a numeric value.`);
  if (number < 0 && !options.allowNegative)
    throw errors.numberTooSmall(
      `The value '${String(value)}' in the ${field} field is less than the minimum allowable value of '0'.`,
    );
  if (number < -MAX_TIME)
    throw errors.numberTooSmall(
      `The value '${String(value)}' in the ${field} field is less than the minimum allowable value of '-${MAX_TIME}'.`,
    );
  if (number > MAX_TIME)
    throw errors.numberTooLarge(
      `The value '${String(value)}' in the ${field} field is more than the maximum allowable value of '${MAX_TIME}'.`,
    );
  return Math.round(number * 100) / 100;
}

/** The time remaining after hours worked (Bugzilla's add_comment): less by them, never below zero. */
export const remainingAfter = (remaining: number, hoursWorked: number): number =>
  Math.max(0, Math.round((remaining - hoursWorked) * 100) / 100);

/** A deadline: `YYYY-MM-DD` (a time part is dropped); '' or null clears it; anything else is 56. */
export function checkDate(field: string, value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  if (!/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?Z?)?$/.test(text) || !isCalendarDate(text)) {
    throw errors.invalidDate(`'${text}' is not a valid date for ${field}: use YYYY-MM-DD.`);
  }
  return text.slice(0, 10);
}

/** A see-also entry: an absolute http(s) URL (Bugzilla's bug_url_invalid, 112, otherwise). */
export function checkSeeAlso(value: unknown): string {
  const text = String(value ?? '').trim();
  const protocol = URL.canParse(text) ? new URL(text).protocol : '';
  if (protocol !== 'http:' && protocol !== 'https:')
    throw errors.invalidSeeAlso(`'${text}' is not a valid URL to a bug: see_also takes http or https URLs.`);
  if (characterCount(text) > 255) throw errors.invalidSeeAlso('A see_also URL can be at most 255 characters long.');
  return text;
}

/** The installation's own link to a bug (`<urlbase>show_bug.cgi?id=N`), as Bugzilla 5.2 writes it. */
export const localBugUrl = (urlbase: string, id: number): string =>
  `${urlbase.endsWith('/') ? urlbase : `${urlbase}/`}show_bug.cgi?id=${id}`;

/**
 * The bug a See Also URL names when it points at this installation (Bugzilla 5.2's
 * BugUrl::Bugzilla::Local: the urlbase's host and path, then show_bug.cgi?id=N), else null.
 * Without a urlbase nothing is local.
 */
export function localBugIdOf(url: string, urlbase: string): number | null {
  if (!urlbase || !URL.canParse(url) || !URL.canParse(urlbase)) return null;
  const link = new URL(url);
  const base = new URL(urlbase);
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  if (link.host.toLowerCase() !== base.host.toLowerCase() || link.pathname !== `${basePath}show_bug.cgi`) return null;
  const id = link.searchParams.get('id') ?? '';
  return /^\d+$/.test(id) && Number(id) > 0 ? Number(id) : null;
}

/** A bug id named in a relation: a positive integer (100 for anything else, as an unknown alias). */
export function checkBugReference(field: string, value: unknown): number {
  const text = String(value ?? '').trim();
  if (!/^\d+$/.test(text) || Number(text) <= 0) throw errors.invalidRelatedBugId(text, field);
  return Number(text);
}

/** The value a custom field has on a new bug when none is given. */
export function customFieldDefault(field: CustomField): unknown {
  switch (field.type) {
    case FIELD_TYPE.SINGLE_SELECT:
      return EMPTY_SELECT_VALUE;
    case FIELD_TYPE.MULTI_SELECT:
      return [];
    case FIELD_TYPE.FREETEXT:
    case FIELD_TYPE.TEXTAREA:
      return '';
    default:
      return null;
  }
}

/** A custom field's value, checked by the field's type and legal values. */
export function checkCustomValue(field: CustomField, value: unknown): unknown {
  const label = `field ${field.name}`;
  switch (field.type) {
    case FIELD_TYPE.FREETEXT:
      return checkText(label, value, 255).trim();
    case FIELD_TYPE.TEXTAREA:
      return checkText(label, value, 65_535);
    case FIELD_TYPE.SINGLE_SELECT: {
      if (value === null || value === undefined || value === '') return EMPTY_SELECT_VALUE;
      return checkLegalValue(`value of ${field.name}`, value, [
        EMPTY_SELECT_VALUE,
        ...field.values.map((entry) => entry.name),
      ]);
    }
    case FIELD_TYPE.MULTI_SELECT: {
      const checked = asList(value).map((entry) =>
        checkLegalValue(
          `value of ${field.name}`,
          entry,
          field.values.map((legal) => legal.name),
        ),
      );
      return [...new Set(checked)];
    }
    case FIELD_TYPE.DATE:
      return checkDate(field.name, value);
    case FIELD_TYPE.DATETIME: {
      if (value === null || value === undefined || value === '') return null;
      const text = String(value).trim();
      const date = new Date(/^\d{4}-\d{2}-\d{2} /.test(text) ? `${text.replace(' ', 'T')}Z` : text);
      if (!isCalendarDate(text) || !isLegalTime(date.getTime())) throw errors.invalidDateTime(text, field.name);
      return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    case FIELD_TYPE.INTEGER: {
      if (value === null || value === undefined || value === '') return null;
      const text = String(value).trim();
      if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(Number(text)))
        throw errors.invalidValue(`The ${label} takes a whole number, not '${text}'.`);
      return Number(text);
    }
    case FIELD_TYPE.BUG_ID:
      if (value === null || value === undefined || value === '') return null;
      return checkBugReference(field.name, value);
    default:
      throw errors.invalidParameter(`The ${label} cannot be set.`);
  }
}

/**
 * A list-field change as clients send it: a plain list (set it), or `{add, remove, set}`; a
 * single value is a list of one.
 */
export interface ListChange<T> {
  set?: T[];
  add: T[];
  remove: T[];
}

export function parseListChange<T>(field: string, value: unknown, item: (entry: unknown) => T): ListChange<T> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const unknown = Object.keys(object).filter((key) => !['add', 'remove', 'set'].includes(key));
    if (unknown.length > 0)
      throw errors.invalidParameter(`The ${field} change takes add, remove or set, not '${unknown[0]}'.`);
    return {
      set: object.set === undefined ? undefined : asList(object.set).map(item),
      add: asList(object.add).map(item),
      remove: asList(object.remove).map(item),
    };
  }
  return { set: asList(value).map(item), add: [], remove: [] };
}

/** Applies a list change: `set` replaces, then `remove`, then `add` (Bugzilla's order). */
export function applyListChange<T>(
  current: readonly T[],
  change: ListChange<T>,
  same: (a: T, b: T) => boolean = Object.is,
): T[] {
  let next = change.set ? [...change.set] : [...current];
  next = next.filter((entry) => !change.remove.some((removed) => same(removed, entry)));
  for (const entry of change.add) if (!next.some((existing) => same(existing, entry))) next.push(entry);
  return next.filter((entry, index) => next.findIndex((other) => same(other, entry)) === index);
}

/** A datetime parameter (`new_since`, ...): ISO 8601 or `YYYY-MM-DD[ HH:MM:SS]`, UTC; otherwise 56. */
export function checkDateTimeParameter(name: string, value: string): string {
  const text = value.trim();
  const normalized = /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? `${text}T00:00:00Z`
    : /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text)
      ? `${text.replace(' ', 'T')}Z`
      : text;
  const date = new Date(normalized);
  // Date rolls 2024-02-30 over to March and takes years 0000 and 10000: each is 56, as in Bugzilla.
  if (!isCalendarDate(text) || !isLegalTime(date.getTime())) throw errors.invalidDateTime(text, name);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
