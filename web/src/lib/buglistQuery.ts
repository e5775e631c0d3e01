/**
 * A buglist.cgi address to a GET /rest/bug query. The API understands Bugzilla's buglist
 * parameters itself (bug_status, short_desc, f1/o1/v1, quicksearch, order...), so most of them
 * pass through; parameters that only drive Bugzilla's pages are dropped, and paging and the
 * columns come from the page.
 */

import { savedSearchRun } from './savedSearches.ts';

/** Parameters of buglist.cgi that are about the page, not the search. */
const PAGE_ONLY = new Set([
  'columnlist',
  'list_id',
  'query_format',
  'cmdtype',
  'remaction',
  'namedcmd',
  'sharer_id',
  'savedsearch',
  'ctype',
  'format',
  'query_based_on',
  'known_name',
  'limit',
  'offset',
  'include_fields',
  'exclude_fields',
  'count_only',
  'token',
  'api_key',
  'Bugzilla_api_key',
  'Bugzilla_token',
  'Bugzilla_login',
  'Bugzilla_password',
  'login',
  'password',
]);

export interface Paging {
  limit: number;
  offset: number;
}

/** Whether a search address has any criterion at all (the API refuses one without: 1000). */
export function hasCriteria(params: URLSearchParams): boolean {
  if (savedSearchRun(params)) return true;
  for (const [name, value] of params) {
    if (!PAGE_ONLY.has(name) && name !== 'order' && value !== '') return true;
  }
  return false;
}

/** The search part of a buglist address, as query parameters for GET /rest/bug. */
export function searchParams(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  // A saved search runs by name: its own criteria, whatever else the address says.
  const saved = savedSearchRun(params);
  if (saved) {
    out.set('savedsearch', saved.name);
    if (saved.sharerId !== null) out.set('sharer_id', String(saved.sharerId));
    const order = params.get('order');
    if (order) out.set('order', order);
    return out;
  }
  for (const [name, value] of params) {
    if (PAGE_ONLY.has(name)) continue;
    // Bugzilla's forms send empty fields; only `resolution=` (open bugs) means something empty.
    if (value === '' && name !== 'resolution') continue;
    out.append(name, value);
  }
  return out;
}

/** The query for one page of results with the given fields. */
export function pageQuery(params: URLSearchParams, fields: readonly string[], paging: Paging): URLSearchParams {
  const out = searchParams(params);
  out.set('include_fields', [...new Set(['id', ...fields])].join(','));
  out.set('limit', String(paging.limit));
  out.set('offset', String(paging.offset));
  return out;
}

/** The query that counts every result. */
export function countQuery(params: URLSearchParams): URLSearchParams {
  const out = searchParams(params);
  out.delete('order');
  out.set('count_only', '1');
  return out;
}

/** Reads the page number (1-based) and page size from the address, with bounds. */
export function pagingOf(params: URLSearchParams, defaultSize = 50): Paging {
  const limit = clampInt(params.get('limit'), defaultSize, 1, 500);
  const offset = clampInt(params.get('offset'), 0, 0, 1_000_000);
  return { limit, offset };
}

function clampInt(value: string | null, fallback: number, min: number, max: number): number {
  const n = value === null ? Number.NaN : Number.parseInt(value, 10);
  if (!Number.isFinite(n)) return fallback;
  return Math.min(max, Math.max(min, n));
}

/** The buglist address of a quicksearch. */
export function quicksearchHref(text: string): string {
  return `/buglist.cgi?${new URLSearchParams({ quicksearch: text.trim() }).toString()}`;
}

/**
 * What the quicksearch box does with its text: a bug number or `#N` opens the bug, as Bugzilla's
 * quicksearch does for a lone number; anything else searches.
 */
export function quicksearchTarget(text: string): string {
  const trimmed = text.trim();
  const single = /^#?(\d+)$/.exec(trimmed);
  if (single) return `/show_bug.cgi?id=${single[1]}`;
  return quicksearchHref(trimmed);
}
