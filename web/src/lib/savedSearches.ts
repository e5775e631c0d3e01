/**
 * Saved searches in buglist.cgi addresses, as Bugzilla writes them: one's own runs with
 * `cmdtype=runnamed&namedcmd=NAME`, another person's shared one with
 * `cmdtype=dorem&remaction=run&namedcmd=NAME&sharer_id=ID` (what python-bugzilla's url_to_query
 * reads). GET /rest/bug understands both; buglistQuery.ts passes them on as `savedsearch`.
 */

export interface SavedSearchRun {
  name: string;
  sharerId: number | null;
}

/** The saved search a buglist address runs, if it runs one. */
export function savedSearchRun(params: URLSearchParams): SavedSearchRun | null {
  const cmdtype = params.get('cmdtype');
  const runs = cmdtype === 'runnamed' || (cmdtype === 'dorem' && params.get('remaction') === 'run');
  const name = params.get('savedsearch') ?? (runs ? params.get('namedcmd') : null);
  if (name === null) return null;
  const sharer = params.get('sharer_id');
  return { name, sharerId: sharer && /^\d+$/.test(sharer) ? Number(sharer) : null };
}

/** The buglist address that runs a saved search. */
export function savedSearchHref(search: { name: string; is_own: boolean; owner_id: number }): string {
  const params = search.is_own
    ? new URLSearchParams({ cmdtype: 'runnamed', namedcmd: search.name })
    : new URLSearchParams({
        cmdtype: 'dorem',
        remaction: 'run',
        namedcmd: search.name,
        sharer_id: String(search.owner_id),
      });
  return `/buglist.cgi?${params.toString()}`;
}
