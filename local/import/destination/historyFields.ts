import { apiFieldName } from '../../../shared/domain/bug/bugFields.ts';
import type { SourceKind } from '../source/index.ts';

/**
 * History field names as Tracker writes them, which are Bugzilla 5.x's: the API names of
 * Bugzilla's FIELD_MAP (`status`, `summary`, `is_cc_accessible`, ...), `groups` for `bug_group`,
 * and the database names for the rest (`attachments.isobsolete`, `flagtypes.name`, `work_time`).
 * Bugzilla 5.0 and 5.2 answer with those already. Harmony/BMO means to as well, but its history
 * looks the names up in the cache entry of the field types (Bugzilla/WebService/Bug.pm,
 * `$api_field_names`), so it answers with its database's names (`bug_status`, `short_desc`,
 * `cclist_accessible`, `bug_type`, `regresses`, ...): those are renamed, anything else is kept.
 */

/** Tracker's stored names are Harmony's database names (bugFields.ts); FIELD_MAP adds `dup_id`. */
const HARMONY_EXTRA_NAMES: Readonly<Record<string, string>> = { dup_id: 'dupe_of' };

/**
 * A history field name as Harmony/BMO sends it, named as Tracker's history names it. Also right
 * for 5.x and Tracker sources: none of their names is one it renames.
 */
export const harmonyHistoryField = (name: string): string => HARMONY_EXTRA_NAMES[name] ?? apiFieldName(name);

export function historyFieldNames(kind: SourceKind): (name: string) => string {
  return kind === 'harmony' ? harmonyHistoryField : (name) => name;
}
