import { errors } from '../../../errors.ts';
import { asList } from '../../inputValues.ts';

/** Every field a Bugzilla 5.2 client may send to file a bug, custom fields (cf_*) aside. */
const CREATE_FIELDS: ReadonlySet<string> = new Set([
  'product',
  'component',
  'summary',
  'version',
  'description',
  'op_sys',
  'platform',
  'rep_platform',
  'priority',
  'severity',
  'type',
  'alias',
  'assigned_to',
  'qa_contact',
  'cc',
  'status',
  'resolution',
  'target_milestone',
  'keywords',
  'groups',
  'blocks',
  'depends_on',
  'regressed_by',
  'regressions',
  'see_also',
  'url',
  'whiteboard',
  'deadline',
  'estimated_time',
  'remaining_time',
  'comment_is_private',
  'is_markdown',
  'flags',
  'is_cc_accessible',
  'is_creator_accessible',
  'filed_via',
  'comment_tags',
]);

/**
 * Sent by a great deal of Bugzilla client code and accepted by 5.2, whose validator ignores the
 * value: the reporter of a new bug is always the caller.
 */
const IGNORED_ON_CREATE: ReadonlySet<string> = new Set(['creator', 'reporter']);

export function refuseUnknownFields(input: Record<string, unknown>): void {
  const unknown = Object.keys(input).find(
    (name) => !CREATE_FIELDS.has(name) && !IGNORED_ON_CREATE.has(name) && !name.startsWith('cf_'),
  );
  if (unknown !== undefined) throw errors.unknownField(`The parameter '${unknown}' is not a field of a new bug.`);
}

/** For every field of a new bug, a string of spaces is no value. */
export const present = (value: unknown) =>
  value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');

/** Like asList, but a string of spaces is no value either (`present`). */
export const presentList = (value: unknown): unknown[] => (present(value) ? asList(value) : []);

export const mustEnter = (what: string) => errors.missingParameter(`You must select/enter ${what}.`);

export function required(input: Record<string, unknown>, field: string, what: string): string {
  const value = input[field];
  if (!present(value)) throw mustEnter(what);
  return String(Array.isArray(value) ? value[0] : value).trim();
}
