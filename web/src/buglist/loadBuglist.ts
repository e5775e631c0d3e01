import { countBugs, searchBugs } from '../api/tracker.ts';
import type { Bug } from '../api/types.ts';
import { countQuery, hasCriteria, pageQuery, pagingOf } from '../lib/buglistQuery.ts';
import { normaliseColumns, parseColumnList } from '../lib/columns.ts';
import { ownerOf } from '../state/keptCatalog.ts';
import { session } from '../state/session.ts';
import { storedColumns } from './columnPrefs.ts';

export interface BuglistData {
  bugs: Bug[];
  total: number;
}

/** The columns a list shows: the address's `columnlist`, else the person's chosen ones. */
export function listColumns(params: URLSearchParams, chosen: readonly string[]): string[] {
  return normaliseColumns(parseColumnList(params.get('columnlist')) ?? [...chosen]);
}

/** One page of the list (its columns and `is_open`) and the count of all it finds, at once. */
async function readBuglist(params: URLSearchParams, columns: readonly string[]): Promise<BuglistData> {
  const fields = [...new Set([...columns, 'is_open'])];
  const [bugs, total] = await Promise.all([
    searchBugs(pageQuery(params, fields, pagingOf(params))),
    countBugs(countQuery(params)),
  ]);
  return { bugs, total };
}

/** Loads started before the page asked, by person, address and columns; each is taken once. */
const started = new Map<string, Promise<BuglistData>>();
const keyOf = (params: URLSearchParams, columns: readonly string[]) =>
  `${ownerOf(session.value)} ${params.toString()} ${columns.join(',')}`;

/**
 * Starts reading the list at `params` now: main.tsx calls it when the app's script runs on a
 * buglist address, so the search goes out before the first render rather than after it.
 */
export function preloadBuglist(params: URLSearchParams): Promise<unknown> | undefined {
  if (!hasCriteria(params)) return undefined;
  const columns = listColumns(params, storedColumns());
  const load = readBuglist(params, columns);
  started.set(keyOf(params, columns), load);
  return load;
}

/** The list's data: the load started for it, if any, else a new one. */
export function loadBuglist(params: URLSearchParams, columns: readonly string[]): Promise<BuglistData> {
  const key = keyOf(params, columns);
  const load = started.get(key);
  started.delete(key);
  return load ?? readBuglist(params, columns);
}
