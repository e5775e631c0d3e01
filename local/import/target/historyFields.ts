import type { SourceKind } from '../source/index.ts';

/**
 * History field names as Tracker writes them, which are Bugzilla 5.2's (the API's names:
 * `status`, `summary`, ...). Harmony/BMO answers with its database's column names instead
 * (`bug_status`, `short_desc`, ...); they are renamed, and anything else is kept as sent.
 */
const HARMONY_NAMES: Readonly<Record<string, string>> = {
  bug_status: 'status',
  short_desc: 'summary',
  bug_severity: 'severity',
  rep_platform: 'platform',
  bug_file_loc: 'url',
  status_whiteboard: 'whiteboard',
  dependson: 'depends_on',
  blocked: 'blocks',
  bug_group: 'groups',
};

export function historyFieldNames(kind: SourceKind): (name: string) => string {
  return kind === 'harmony' ? (name) => HARMONY_NAMES[name] ?? name : (name) => name;
}
