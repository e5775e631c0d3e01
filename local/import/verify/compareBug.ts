import type { CompareOptions, Difference } from './differences.ts';
import { sameValue } from './normalise.ts';

/**
 * A bug's fields, every one the source sends, against the target's (normalise.ts makes the
 * spellings equal). Fields only the target sends are not compared: a 5.2 source has no `type`,
 * `duplicates` or `comment_count` to compare them with.
 */

/** Fields never compared as fields, each with why. */
export const NOT_COMPARED: Readonly<Record<string, string>> = {
  // PER_REQUEST: a token Bugzilla derives from the reader and the moment of reading, new on every answer.
  update_token: 'a per-request token, different on every read',
  // Compared record by record (compareFlags, compareComments, ...), with their own normalisations.
  flags: 'compared flag by flag',
  comments: 'compared comment by comment',
  history: 'compared entry by entry',
  attachments: 'compared attachment by attachment',
  description: 'the first comment, compared with the comments',
  // NOT_KEPT: Harmony/BMO's Mozilla-only fields; Tracker has no place for them (the import report says so).
  mentors: 'Harmony/BMO only: not kept by Tracker',
  mentors_detail: 'Harmony/BMO only: not kept by Tracker',
  votes: 'Harmony/BMO only: not kept by Tracker',
};

/**
 * PER_USER: the reading account's personal tags. Each side answers for its own reader, so they
 * are compared only when one login reads both (`CompareOptions.personalTags`).
 */
const PER_USER = new Set(['tags']);

/**
 * USER_DETAIL: `*_detail` objects name a user by the source's user id, which the target numbers
 * itself, and show `email` only to some readers (Harmony hides it; Tracker adds `nick`, derived
 * from the login): a user is the same when login and real name are.
 */
const userOf = (value: unknown): unknown =>
  value && typeof value === 'object'
    ? { name: (value as { name?: unknown }).name, real_name: (value as { real_name?: unknown }).real_name }
    : value;
const asDetail = (field: string, value: unknown): unknown =>
  field.endsWith('_detail') ? (Array.isArray(value) ? value.map(userOf) : userOf(value)) : value;

/** ALIAS: a list in 5.0/5.2, a string or null in Harmony and Tracker. */
const asAliases = (value: unknown): unknown => (typeof value === 'string' ? [value] : value);

const normalised = (field: string, value: unknown): unknown =>
  field === 'alias' ? asAliases(value) : asDetail(field, value);

export function compareBugFields(
  bugId: number,
  source: Record<string, unknown>,
  target: Record<string, unknown>,
  options: CompareOptions,
): Difference[] {
  const differences: Difference[] = [];
  for (const field of Object.keys(source).sort()) {
    if (Object.hasOwn(NOT_COMPARED, field)) continue;
    if (PER_USER.has(field) && !options.personalTags) continue;
    if (!sameValue(normalised(field, source[field]), normalised(field, target[field])))
      differences.push({ kind: 'bug', id: bugId, field, source: source[field] ?? null, target: target[field] ?? null });
  }
  return differences;
}
