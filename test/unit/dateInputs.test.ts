import { describe, expect, it } from 'vitest';
import { checkDate, checkDateTimeParameter } from '../../shared/domain/bug/bugFieldRules.ts';
import { parseSearchTime } from '../../shared/domain/search/evaluation/valueMatchers.ts';
import { isCalendarDate, isLegalTime } from '../../shared/domain/time.ts';
import { trackerErrorOf } from '../support/trackerErrorOf.ts';

/**
 * Dates read from input (search bounds, deadlines, `new_since`): anything that names no instant
 * of years 0001–9999 is Bugzilla's illegal date, 56, never a bound that silently matches nothing.
 */
const NOW = Date.parse('2025-06-10T12:00:00Z');

describe('dates from input', () => {
  it('refuses relative search dates that overflow, as 56', () => {
    for (const value of [
      '-1000000000w',
      '-1000000000d',
      '-99999999999h',
      '-100000000m',
      '-10000y',
      `-1${'0'.repeat(400)}d`,
    ]) {
      expect(trackerErrorOf(() => parseSearchTime(value, NOW))?.code, value).toBe(56);
    }
    expect(trackerErrorOf(() => parseSearchTime('-1000000000w', NOW))?.message).toBe(
      "'-1000000000w' is not a legal date.",
    );
  });

  it('refuses absolute search dates the calendar does not have, or beyond 0001–9999', () => {
    for (const value of [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '0000-01-01',
      '2024-01-01 25:00',
      '20240230T00:00:00',
      '10000',
      '+010000-01-01T00:00:00Z',
      '2024-02-30T00:00:00+01:00',
    ]) {
      expect(trackerErrorOf(() => parseSearchTime(value, NOW))?.code, value).toBe(56);
    }
  });

  it("reads relative dates as Bugzilla's SqlifyDate does: exact, or from the start of the unit with s or 0", () => {
    // A Tuesday, 12:34:56 UTC.
    const now = Date.parse('2025-06-10T12:34:56Z');
    const at = (value: string) => new Date(parseSearchTime(value, now)).toISOString().replace('.000', '');
    expect(at('-3h')).toBe('2025-06-10T09:34:56Z');
    expect(at('-3hs')).toBe('2025-06-10T09:00:00Z');
    expect(at('-1d')).toBe('2025-06-09T12:34:56Z');
    expect(at('-1ds')).toBe('2025-06-09T00:00:00Z');
    expect(at('0d')).toBe('2025-06-10T00:00:00Z');
    expect(at('+1d')).toBe('2025-06-11T12:34:56Z');
    expect(at('-2w')).toBe('2025-05-27T12:34:56Z');
    // The start of the week two weeks back: Sundays, as Perl's wday counts.
    expect(at('-2ws')).toBe('2025-05-25T00:00:00Z');
    expect(at('0w')).toBe('2025-06-08T00:00:00Z');
    expect(at('-1m')).toBe('2025-05-10T12:34:56Z');
    expect(at('-1ms')).toBe('2025-05-01T00:00:00Z');
    expect(at('-13ms')).toBe('2024-05-01T00:00:00Z');
    expect(at('-1y')).toBe('2024-06-10T12:34:56Z');
    expect(at('-1YS')).toBe('2024-01-01T00:00:00Z');
  });

  it('still reads every legal form, up to the edges of the range', () => {
    expect(parseSearchTime('-1d', NOW)).toBe(NOW - 24 * 3_600_000);
    expect(parseSearchTime('now', NOW)).toBe(NOW);
    expect(parseSearchTime('2024-02-29', NOW)).toBe(Date.parse('2024-02-29T00:00:00Z'));
    expect(parseSearchTime('0001-01-01', NOW)).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseSearchTime('9999-12-31 23:59:59', NOW)).toBe(Date.parse('9999-12-31T23:59:59Z'));
    expect(parseSearchTime('-2024ys', NOW)).toBe(Date.parse('0001-01-01T00:00:00Z'));
    expect(parseSearchTime('2025-01-01T00:30:00+01:00', NOW)).toBe(Date.parse('2024-12-31T23:30:00Z'));
    expect(Number.isNaN(parseSearchTime('', NOW))).toBe(true);
  });

  it('refuses such dates for deadlines and datetime parameters too', () => {
    for (const value of ['2024-02-30', '0000-01-01', '2023-02-29']) {
      expect(trackerErrorOf(() => checkDate('deadline', value))?.code, value).toBe(56);
      expect(trackerErrorOf(() => checkDateTimeParameter('new_since', value))?.code, value).toBe(56);
    }
    expect(checkDate('deadline', '2024-02-29')).toBe('2024-02-29');
    expect(checkDateTimeParameter('new_since', '9999-12-31 23:59:59')).toBe('9999-12-31T23:59:59Z');
  });

  it('knows the calendar and the range', () => {
    expect(isCalendarDate('2000-02-29')).toBe(true);
    expect(isCalendarDate('1900-02-29')).toBe(false);
    expect(isCalendarDate('2024-04-31')).toBe(false);
    expect(isCalendarDate('2024-00-10')).toBe(false);
    expect(isLegalTime(Number.NaN)).toBe(false);
    expect(isLegalTime(Date.parse('+010000-01-01T00:00:00Z'))).toBe(false);
  });
});
