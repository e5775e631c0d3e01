import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { flag, integer, list, noInput, text } from '../../shared/http/inputSchemas.ts';

describe('list()', () => {
  const ids = list(integer());

  it.each<[string, unknown]>([
    ['a comma list', '1,2'],
    ['a comma list with spaces and empty items', ' 1 , 2,,'],
    ['a repeated query key', ['1', '2']],
    ['a JSON array of numbers', [1, 2]],
  ])('reads %s', (_, value) => {
    expect(ids.parse(value)).toEqual([1, 2]);
  });

  it('wraps a single value', () => {
    expect(ids.parse('7')).toEqual([7]);
    expect(ids.parse(7)).toEqual([7]);
  });

  it('flattens repeated keys that hold comma lists', () => {
    expect(ids.parse(['1,2', '3'])).toEqual([1, 2, 3]);
  });

  it('keeps commas inside items with splitCommas: false', () => {
    expect(list(z.string(), { splitCommas: false }).parse(['Doe, Jane', 'x'])).toEqual(['Doe, Jane', 'x']);
    expect(list(z.string(), { splitCommas: false }).parse('Doe, Jane')).toEqual(['Doe, Jane']);
  });

  it('validates every item', () => {
    expect(ids.safeParse('1,abc').success).toBe(false);
  });

  it('treats an absent value as missing', () => {
    expect(z.object({ ids: ids.optional() }).parse({})).toEqual({});
    expect(ids.parse(undefined)).toBeUndefined();
  });

  // BUG (shared/http/inputSchemas.ts:11, list()): the preprocess step turns '' and null into undefined, but
  // undefined then goes into the inner z.array(item), which rejects it: `.optional()` outside the preprocess never
  // sees undefined. So `ids=` (an empty query value) fails with "expected array, received undefined", which
  // validateInput reports as "The parameter 'ids' is required." — e.g. GET /rest/last_audit_time?class= is a 400.
  it('treats an empty value ("" or null) as missing', () => {
    const schema = z.object({ ids: ids.optional() });
    expect(schema.parse({ ids: '' })).toEqual({ ids: undefined });
    expect(schema.parse({ ids: null })).toEqual({ ids: undefined });
  });
});

describe('integer()', () => {
  it('reads decimal text and JSON numbers', () => {
    expect(integer().parse('12')).toBe(12);
    expect(integer().parse(' -3 ')).toBe(-3);
    expect(integer().parse(12)).toBe(12);
  });

  it.each(['abc', '1.5', '', '12abc', 1.5])('refuses %j', (value) => {
    expect(integer().safeParse(value).success).toBe(false);
  });

  it('takes the last value of a repeated key', () => {
    expect(integer().parse(['1', '2', '3'])).toBe(3);
  });
});

describe('flag()', () => {
  it.each<[unknown, boolean]>([
    ['1', true],
    ['true', true],
    [' TRUE ', true],
    [true, true],
    [1, true],
    ['0', false],
    ['false', false],
    ['', false],
    [false, false],
    [0, false],
    [['1', '0'], false],
  ])('reads %j as %s', (value, expected) => {
    expect(flag().parse(value)).toBe(expected);
  });

  it.each(['yes', 2, null])('refuses %j', (value) => {
    expect(flag().safeParse(value).success).toBe(false);
  });
});

describe('text()', () => {
  it('reads a string, keeping the last value of a repeated key', () => {
    expect(text().parse('hello')).toBe('hello');
    expect(text().parse(['first', 'last'])).toBe('last');
  });

  it('refuses a non-string', () => {
    expect(text().safeParse(5).success).toBe(false);
    expect(text().safeParse({ a: 1 }).success).toBe(false);
  });
});

describe('noInput()', () => {
  it('accepts and drops unknown parameters', () => {
    expect(noInput().parse({ anything: '1' })).toEqual({});
  });
});
