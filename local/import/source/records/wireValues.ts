import * as z from 'zod';

/**
 * How Bugzilla-compatible sources spell values, and the one spelling records use: booleans as
 * JSON booleans (5.2), 0/1 (5.2's attachments, the spec's groups) or "0"/"1"; ids as numbers or
 * digit strings; "" for nobody where a login is expected; absent lists and texts.
 */

export const truthy = (value: unknown): boolean =>
  value === true || value === 1 || (typeof value === 'string' && ['1', 'true'].includes(value.trim().toLowerCase()));

export const looseBoolean = z.union([z.boolean(), z.number(), z.string(), z.null()]).optional();
/** A Bugzilla boolean in any of its spellings; `fallback` when absent. */
export const bool = (fallback: boolean) =>
  looseBoolean.transform((value) => (value == null ? fallback : truthy(value)));
/** A Bugzilla boolean, or null when the source did not say. */
export const maybeBool = looseBoolean.transform((value) => (value == null ? null : truthy(value)));
/**
 * The largest id the importer takes: Bugzilla keeps ids in MySQL's INT columns (bug, user and
 * attachment ids in smaller ones still), so a source that sends more (2^53−1, ...) is not a
 * Bugzilla, and reading up to such an id would never end (issue 41).
 */
export const MAX_SOURCE_ID = 2_147_483_647;
/**
 * Ids arrive as numbers, and as digit strings in places (the spec's `whoami`, group updates);
 * every one is a whole number from 1 to MAX_SOURCE_ID (zero, negative ids and larger ones are
 * refused, naming the value: the API could not address them).
 */
export const idSchema = z
  .union([z.number().int(), z.string().regex(/^-?\d+$/)])
  .transform(Number)
  .refine((id) => Number.isSafeInteger(id) && id >= 1 && id <= MAX_SOURCE_ID, {
    error: (issue) =>
      `${String(issue.input)} is not an id the importer takes (a whole number from 1 to ${MAX_SOURCE_ID})`,
  });
export const maybeId = z
  .union([idSchema, z.null()])
  .optional()
  .transform((value) => value ?? null);
export const text = z
  .string()
  .nullish()
  .transform((value) => value ?? '');
export const maybeText = z
  .string()
  .nullish()
  .transform((value) => value ?? null);
/** A login where Bugzilla writes "" for nobody (QA contact, default QA contact, triage owner). */
export const maybeLogin = z
  .string()
  .nullish()
  .transform((value) => (value ? value : null));
export const ids = z
  .array(idSchema)
  .nullish()
  .transform((value) => value ?? []);
export const maybeIds = z
  .array(idSchema)
  .nullish()
  .transform((value) => value ?? null);
export const strings = z
  .array(z.string())
  .nullish()
  .transform((value) => value ?? []);
export const maybeNumber = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value) => (value == null || value === '' ? null : Number(value)));
export const sortKey = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((value) => (value == null || value === '' ? 0 : Number(value)));
