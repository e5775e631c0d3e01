/**
 * Saved searches, as Bugzilla 5.2 keeps them (Bugzilla/Search/Saved.pm, its `namedqueries` and
 * `namedquery_group_map` tables): a person's named buglist query string, unique per person by
 * name (whatever its case), which its owner may share with one group they are in. What a search
 * is and who may run or share it are decided here; the storage adapter keeps them.
 */
import { errors } from '../../../errors.ts';
import { CREDENTIAL_PARAMS } from '../../identity/authentication.ts';
import { characterCount } from '../../inputLimits.ts';

export interface SavedSearch {
  id: number;
  ownerId: number;
  /** As its owner wrote it, trimmed (Bugzilla's namedqueries.name). */
  name: string;
  /** A buglist query string, without `?` (namedqueries.query). */
  query: string;
  /** The group it is shared with, if any (Bugzilla shares one search with one group at most). */
  sharedWithGroupId: number | null;
}

/** Bugzilla's MAX_LEN_QUERY_NAME. */
export const MAX_SAVED_SEARCH_NAME_LENGTH = 64;

/** Bugzilla's _check_name: trimmed, not empty, none of `<>&`, at most 64 characters. */
export function checkSavedSearchName(raw: string): string {
  const name = raw.trim();
  if (name === '') throw errors.savedSearchNameRequired();
  if (/[<>&]/.test(name)) throw errors.illegalSavedSearchName();
  if (characterCount(name) > MAX_SAVED_SEARCH_NAME_LENGTH) throw errors.savedSearchNameTooLong();
  return name;
}

/**
 * Parameters never kept in a saved search: credentials (a saved search is not a place for a
 * secret), the parameters that run one (a saved search never names another), and those that only
 * shape one answer (the fields and page of the request that runs it).
 */
const NOT_SAVED = new Set([
  ...CREDENTIAL_PARAMS,
  'Bugzilla_remember',
  'GoAheadAndLogIn',
  'known_name',
  'cmdtype',
  'remaction',
  'remtype',
  'namedcmd',
  'newqueryname',
  'sharer_id',
  'savedsearch',
  'list_id',
  'include_fields',
  'exclude_fields',
  'count_only',
  'offset',
  'callback',
]);

/**
 * The query string as Bugzilla stores it (_check_query, CGI.pm's clean_search_url): a whole
 * buglist address or only its query part is accepted; empty parameters go with their `_type`,
 * unused custom-search rows (`noop`) and AND joins (the default) go, and so does everything
 * NOT_SAVED names. Nothing left is Bugzilla's buglist_parameters_required.
 */
export function cleanSavedQuery(raw: string): string {
  let text = raw.trim();
  const address = /^(?:[a-z][a-z0-9+.-]*:\/\/[^?]*|\/[^?]*|[\w.-]+\.cgi)\?/i.exec(text);
  if (address) text = text.slice(address[0].length);
  if (text.startsWith('?')) text = text.slice(1);
  const params = new URLSearchParams(text);
  const empty = new Set<string>();
  for (const [name, value] of params) if (value === '') empty.add(name);
  const kept = new URLSearchParams();
  for (const [name, value] of params) {
    if (NOT_SAVED.has(name) || value === '') continue;
    const base = name.endsWith('_type') ? name.slice(0, -'_type'.length) : '';
    if (base !== '' && empty.has(base) && !params.getAll(base).some((given) => given !== '')) continue;
    if ((/\d-\d+-\d+$/.test(name) || /^[a-z]\d+$/i.test(name)) && value === 'noop') continue;
    if ((/^j\d+$/.test(name) || name === 'j_top') && value === 'AND') continue;
    kept.append(name, value);
  }
  const query = kept.toString();
  if (query === '') throw errors.savedSearchCriteriaRequired();
  return query;
}

/** Who asks, as the rules below need them. */
export interface SavedSearchViewer {
  id: number;
  groups: ReadonlySet<string>;
}

/**
 * Whether the viewer may run a search (Saved.pm's check): their own, or one shared with a group
 * they are in.
 */
export function mayRunSavedSearch(
  viewer: SavedSearchViewer,
  search: SavedSearch,
  groupName: (id: number) => string | undefined,
): boolean {
  if (search.ownerId === viewer.id) return true;
  if (search.sharedWithGroupId === null) return false;
  const group = groupName(search.sharedWithGroupId);
  return group !== undefined && viewer.groups.has(group);
}

/**
 * Whether the viewer may share their searches with `group` (User.pm's queryshare_groups): only
 * members of the `querysharegroup` parameter's group share, and only with a group they are in.
 */
export function checkMayShare(viewer: SavedSearchViewer, shareGroup: string, group: string): void {
  if (!viewer.groups.has(shareGroup)) throw errors.onlyGroupMembersMay('share saved searches', shareGroup);
  if (!viewer.groups.has(group)) throw errors.savedSearchShareGroupDenied(group);
}
