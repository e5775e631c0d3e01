/**
 * Bugzilla has no "several bugs" form of its per-bug routes, but on GET it merges the bug in the
 * path with the `ids` parameter (5.0 and 5.2's REST server, Harmony and Tracker alike), so
 * `/bug/1/comment?ids=2&ids=3` reads three bugs' comments in one request. A batch of 100 ids
 * stays far below the 10 KB query-string limit past which Bugzilla redirects and Tracker answers 414.
 */
export function batchRequest(ids: readonly number[], suffix = ''): { path: string; query: { ids?: number[] } } {
  if (ids.length === 0) throw new RangeError('a batch request needs at least one id');
  const [first, ...rest] = ids;
  return { path: `/bug/${first}${suffix}`, query: rest.length > 0 ? { ids: rest } : {} };
}
