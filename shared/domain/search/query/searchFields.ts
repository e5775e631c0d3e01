/**
 * The fields a search criterion can name: the aliases requests use for them, the family each
 * belongs to (which decides how it is compiled), and the names the bug history gives them.
 */
import { nameTable } from '../../nameTable.ts';
import type { CodeColumn, ListColumn } from '../index/columns.ts';
/** Fields whose values are names of a user (matched against logins). */
export const USER_FIELDS = new Set([
  'assigned_to',
  'reporter',
  'qa_contact',
  'cc',
  'commenter',
  'setters.login_name',
  'requestees.login_name',
  'triage_owner',
]);
export const COMMENT_FIELDS = new Set(['longdesc', 'content', 'commenter', 'description']);

/**
 * Negated operators over comment text (`longdesc`) and aliases, and their positive forms. Bugzilla
 * joins one comment per criterion and tests the operator on it (Search.pm's _long_desc_nonchanged),
 * so `notsubstring` finds the bugs with a comment that does not contain the text, not the bugs none
 * of whose comments contain it; and it tests aliases in a subselect of the aliases table
 * (_alias_nonchanged), so a negative operator finds the bugs with an alias that fails the positive
 * test, and never a bug without an alias (which is why a quicksearch `-word` leaves those out).
 */
export const PER_COMMENT_NEGATIONS: Readonly<Record<string, string>> = nameTable({
  notequals: 'equals',
  notsubstring: 'substring',
  nowordssubstr: 'anywordssubstr',
  notregexp: 'regexp',
  nowords: 'anywords',
});

/** API names and display names accepted in `fN` → Bugzilla's column names. */
const FIELD_ALIASES: Readonly<Record<string, string>> = nameTable({
  id: 'bug_id',
  status: 'bug_status',
  summary: 'short_desc',
  severity: 'bug_severity',
  platform: 'rep_platform',
  whiteboard: 'status_whiteboard',
  url: 'bug_file_loc',
  creator: 'reporter',
  type: 'bug_type',
  depends_on: 'dependson',
  blocks: 'blocked',
  creation_time: 'creation_ts',
  last_change_time: 'delta_ts',
  changeddate: 'delta_ts',
  opendate: 'creation_ts',
  dupe_of: 'dup_id',
  groups: 'bug_group',
  tags: 'tag',
  regressions: 'regresses',
  comment: 'longdesc',
  long_desc: 'longdesc',
  is_cc_accessible: 'cclist_accessible',
  is_creator_accessible: 'reporter_accessible',
  is_confirmed: 'everconfirmed',
  actual_time: 'work_time',
  flags: 'flagtypes.name',
  longdescs_count: 'longdescs.count',
  comment_count: 'longdescs.count',
  assignee: 'assigned_to',
  assigned_to_realname: 'assigned_to',
  reporter_realname: 'reporter',
  qa_contact_realname: 'qa_contact',
  'attachments.count': 'attachments.count',
});

/** Column name → the field name the history uses (for changedbefore/after/from/to/by). */
export const HISTORY_NAMES: Readonly<Record<string, string>> = nameTable({
  bug_status: 'status',
  short_desc: 'summary',
  bug_severity: 'severity',
  rep_platform: 'platform',
  status_whiteboard: 'whiteboard',
  bug_file_loc: 'url',
  bug_type: 'type',
  dependson: 'depends_on',
  blocked: 'blocks',
  bug_group: 'groups',
  regresses: 'regressions',
  cclist_accessible: 'is_cc_accessible',
  reporter_accessible: 'is_creator_accessible',
  everconfirmed: 'is_confirmed',
});

export const CODE_FIELDS: Readonly<Record<string, CodeColumn>> = nameTable({
  bug_status: 'status',
  resolution: 'resolution',
  priority: 'priority',
  bug_severity: 'severity',
  rep_platform: 'platform',
  op_sys: 'opSys',
  bug_type: 'bugType',
  filed_via: 'filedVia',
});
const TEXT_FIELDS = new Set(['short_desc', 'status_whiteboard', 'bug_file_loc', 'alias']);
// Not `dup_id` (`dupe_of`): 5.2 has no such search field (108 in a chart; its buglist parameter is ignored).
const NUMBER_FIELDS = new Set([
  'bug_id',
  'longdescs.count',
  'attachments.count',
  'estimated_time',
  'remaining_time',
  'work_time',
  'everconfirmed',
  'cclist_accessible',
  'reporter_accessible',
  'votes',
  'days_elapsed',
]);
const TIME_FIELDS = new Set(['creation_ts', 'delta_ts', 'deadline']);
export const ID_LIST_FIELDS: Readonly<Record<string, ListColumn>> = nameTable({
  dependson: 'dependsOn',
  blocked: 'blocks',
  regressed_by: 'regressedBy',
  regresses: 'regressions',
  duplicates: 'duplicates',
});
const OTHER_FIELDS = new Set([
  'product',
  'component',
  'version',
  'target_milestone',
  'classification',
  'keywords',
  'bug_group',
  'flagtypes.name',
  'see_also',
  'tag',
  '*',
  '[Bug creation]',
]);

export const canonicalField = (field: string): string => FIELD_ALIASES[field] ?? field;

export function isSearchableField(field: string): boolean {
  const name = canonicalField(field);
  return (
    name in CODE_FIELDS ||
    TEXT_FIELDS.has(name) ||
    NUMBER_FIELDS.has(name) ||
    TIME_FIELDS.has(name) ||
    name in ID_LIST_FIELDS ||
    OTHER_FIELDS.has(name) ||
    USER_FIELDS.has(name) ||
    COMMENT_FIELDS.has(name) ||
    name.startsWith('cf_')
  );
}

/** Operators Bugzilla applies to a bug's keywords joined into one text, not to each keyword. */
export const KEYWORD_TEXT_OPERATORS: ReadonlySet<string> = new Set([
  'anywords',
  'allwords',
  'allwordssubstr',
  'anywordssubstr',
  'regexp',
]);
