/** Bugzilla's wire format for datetimes: `YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds. */
export function toBugzillaDateTime(date: Date): string {
  const iso = date.toISOString();
  // Years 0–9999 give `YYYY-MM-DDTHH:mm:ss.sssZ`; a search page formats thousands, so no regexp for them.
  return iso.length === 24 ? `${iso.slice(0, 19)}Z` : iso.replace(/\.\d{3}Z$/, 'Z');
}

/** Sortable storage form with milliseconds, so items written in the same second keep their order. */
export function toStorageTime(date: Date): string {
  return date.toISOString();
}

export function storageTimeToBugzilla(value: string): string {
  return toBugzillaDateTime(new Date(value));
}

/** The instants a date may name: years 0001 to 9999, the range of Bugzilla's (MySQL's) DATETIME. */
const FIRST_LEGAL_TIME = Date.parse('0001-01-01T00:00:00Z');
const LAST_LEGAL_TIME = Date.parse('9999-12-31T23:59:59.999Z');

/** Whether ms names an instant of years 0001–9999 (not NaN, not an overflowed relative date). */
export const isLegalTime = (ms: number): boolean =>
  Number.isFinite(ms) && ms >= FIRST_LEGAL_TIME && ms <= LAST_LEGAL_TIME;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Whether text that starts `YYYY-MM-DD` names a day the calendar has. JavaScript's Date rolls
 * 2024-02-30 over to March 1 and takes year 0000; Bugzilla refuses both as illegal dates.
 */
export function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return year >= 1 && days !== undefined && day >= 1 && day <= days;
}
