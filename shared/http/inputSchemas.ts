import * as z from 'zod';
import { booleanOf } from '../domain/inputValues.ts';

/**
 * Schema building blocks for parameters that may arrive as JSON values or as query-string text:
 * `ids=1&ids=2`, `ids=1,2` and `"ids": [1, 2]` all become [1, 2] where a schema asks for a list.
 */
const splitCommas = (value: unknown): unknown =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean)
    : value;

/** Absent, empty and null all mean "not given" (the result is undefined). */
export function list<T extends z.ZodType>(item: T, options: { splitCommas?: boolean } = { splitCommas: true }) {
  return z.preprocess((value) => {
    if (value === undefined || value === null || value === '') return undefined;
    const values = Array.isArray(value) ? value : [value];
    return options.splitCommas === false ? values : values.flatMap((entry) => splitCommas(entry) as unknown[]);
  }, z.array(item).optional());
}

const lastOf = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);

/** An integer given as a JSON number or as decimal text. */
export const integer = () =>
  z.preprocess((value) => {
    const single = lastOf(value);
    return typeof single === 'string' && /^[-+]?\d+$/.test(single.trim()) ? Number(single) : single;
  }, z.number().int());

/** Booleans as JSON, or as Bugzilla's other forms: 1/0, "1"/"0", "true"/"false" (inputValues.ts booleanOf). */
export const flag = () => z.preprocess((value) => booleanOf(value) ?? lastOf(value), z.boolean());

/** A single text value; a repeated query key keeps its last value, as CGI does. */
export const text = () => z.preprocess(lastOf, z.string());

/**
 * A name that may look like a number (a version or milestone such as 2.0), which clients send
 * as one: XMLRPC::Lite writes it `<double>`, JSON clients as a number. Read as its text, as Perl does.
 */
export const nameText = () =>
  z.preprocess((value) => {
    const single = lastOf(value);
    return typeof single === 'number' && Number.isFinite(single) ? String(single) : single;
  }, z.string());

/** An endpoint that takes no parameters of its own (unknown ones are ignored, as in Bugzilla). */
export const noInput = () => z.object({});
