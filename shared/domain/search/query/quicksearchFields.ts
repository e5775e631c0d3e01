/**
 * The field names quicksearch's `field:value` accepts, as Bugzilla 5.2 builds them
 * (Quicksearch.pm FIELD_MAP): its short names (`sw`, `kw`, `os`, `flag`, `milestone`, ...), the
 * name of every field of the installation that has no dot, custom fields with or without their
 * `cf_`, and any beginning of one of those that names a single field (`pri`, `prod`, `stat`).
 */
import { BUILT_IN_FIELDS } from '../../bug/bugFields.ts';
import { nameTable } from '../../nameTable.ts';

/** Bugzilla's own short names, and Harmony's for the Harmony fields Tracker's bugs carry. */
const SHORT_NAMES: Readonly<Record<string, string>> = nameTable({
  status: 'bug_status',
  platform: 'rep_platform',
  os: 'op_sys',
  severity: 'bug_severity',
  assignee: 'assigned_to',
  owner: 'assigned_to',
  milestone: 'target_milestone',
  summary: 'short_desc',
  description: 'longdesc',
  comment: 'longdesc',
  url: 'bug_file_loc',
  whiteboard: 'status_whiteboard',
  sw: 'status_whiteboard',
  kw: 'keywords',
  group: 'bug_group',
  flag: 'flagtypes.name',
  requestee: 'requestees.login_name',
  setter: 'setters.login_name',
  attachment: 'attachments.description',
  attachmentdesc: 'attachments.description',
  attachdesc: 'attachments.description',
  attachmentdata: 'attach_data.thedata',
  attachdata: 'attach_data.thedata',
  attachmentmimetype: 'attachments.mimetype',
  attachmimetype: 'attachments.mimetype',
  // Harmony's
  type: 'bug_type',
  regressions: 'regresses',
});

/**
 * Field names left out so that the short names above are the only way to them, and so that a
 * beginning like `rep` or `stat` is not shared by two names of one field.
 */
const HIDDEN_NAMES = new Set([
  'rep_platform',
  'bug_status',
  'bug_file_loc',
  'bug_group',
  'bug_severity',
  'bug_type',
  'status_whiteboard',
  'cclist_accessible',
  'reporter_accessible',
]);

/** Quicksearch's name → field table for an installation with these custom fields (active ones). */
export function quicksearchFieldMap(customFields: readonly string[] = []): ReadonlyMap<string, string> {
  const map = new Map(Object.entries(SHORT_NAMES));
  for (const name of [...BUILT_IN_FIELDS.map((field) => field.name), ...customFields]) {
    if (!name.includes('.') && !HIDDEN_NAMES.has(name)) map.set(name, name);
  }
  return map;
}

export type FieldLookup =
  | { kind: 'field'; field: string }
  | { kind: 'unknown' }
  | { kind: 'ambiguous'; names: string[] };

/**
 * The names of fields a beginning matches: one name per field. A login field and its `_realname`
 * twin count as the login field alone: Bugzilla 5.2 added the `_realname` fields after its
 * quicksearch was written to find `reporter` from `rep`, and so answers "matches more than one
 * field" for `qa`, `rep` and `assign`, which its own help page uses (`-assign:userB`).
 */
function namesByField(map: ReadonlyMap<string, string>, names: readonly string[]): Map<string, string> {
  const byField = new Map<string, string>();
  for (const name of names) byField.set(map.get(name)!, name);
  for (const field of [...byField.keys()])
    if (field.endsWith('_realname') && byField.has(field.slice(0, -'_realname'.length))) byField.delete(field);
  return byField;
}

/**
 * A quicksearch field name (any case) to the field it means (Quicksearch.pm _translate_field_name).
 * `anyCustomField`: the custom fields are not known, so any `cf_` name is taken as one.
 */
export function lookUpQuicksearchField(
  map: ReadonlyMap<string, string>,
  typed: string,
  anyCustomField = false,
): FieldLookup {
  const name = typed.toLowerCase();
  const exact = map.get(name);
  if (exact) return { kind: 'field', field: exact };
  if (anyCustomField && /^cf_\w+$/.test(name)) return { kind: 'field', field: name };
  const names = [...map.keys()];
  const byField = namesByField(
    map,
    names.filter((candidate) => candidate.startsWith(name)),
  );
  if (byField.size === 1) return { kind: 'field', field: [...byField.keys()][0] };
  if (byField.size > 1) return { kind: 'ambiguous', names: [...byField.values()].sort() };
  // Custom fields answer to their name without `cf_` too, exactly or by a beginning of it.
  const custom = names.filter((candidate) => candidate.startsWith('cf_'));
  const bare = custom.find((candidate) => candidate.slice(3) === name);
  if (bare) return { kind: 'field', field: map.get(bare)! };
  const begun = custom.filter((candidate) => candidate.slice(3).startsWith(name));
  if (begun.length === 1) return { kind: 'field', field: map.get(begun[0])! };
  return { kind: 'unknown' };
}
