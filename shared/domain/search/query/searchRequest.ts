/**
 * A search request's parameters, read once: the criteria, the quicksearch, the bugs it names
 * directly and the page it asks for. The handler parses them (searchRequestOf in
 * application/search/bugSearch.ts, once per request) and the application passes this value on;
 * nothing after it reads the raw parameters again.
 */
import { errors } from '../../../errors.ts';
import { type ParsedParameters, parseSearchParameters, type SearchNode, valuesOf } from './searchQuery.ts';

/** The bugs a request names by `id` and `alias` alone, read directly without the index. */
export interface DirectReferences {
  ids: number[];
  aliases: string[];
}

/** The page asked for, before the installation's maximum applies. */
export interface RequestedPage {
  limit?: number;
  offset?: number;
  countOnly: boolean;
  /** Bugzilla's `order` columns, comma-separated. */
  order?: string;
}

/** A saved search the request runs by name (`savedsearch`, with `sharer_id` for another person's). */
export interface SavedSearchReference {
  name: string;
  /** The owner, when the request names one; otherwise the caller. */
  sharerId: number | null;
}

export interface SearchRequest extends ParsedParameters {
  /** A status named beside the quicksearch replaces its open-bugs default, as in 5.2. */
  statusGiven: boolean;
  direct: DirectReferences | null;
  page: RequestedPage;
  /** Set: the criteria are the saved search's (withSavedQuery), not this request's. */
  saved: SavedSearchReference | null;
}

export function parseSearchRequest(params: Record<string, unknown>): SearchRequest {
  const parsed = parseSearchParameters(params);
  return {
    ...parsed,
    statusGiven: valuesOf(params.status).length + valuesOf(params.bug_status).length > 0,
    direct: directReferences(params, parsed),
    page: requestedPage(params),
    saved: savedSearchReference(params),
  };
}

/**
 * `savedsearch=NAME` (python-bugzilla's, and BMO's Bug.search), or a buglist.cgi address's
 * `cmdtype=runnamed&namedcmd=NAME` (`cmdtype=dorem&remaction=run`), with `sharer_id`.
 */
function savedSearchReference(params: Record<string, unknown>): SavedSearchReference | null {
  const single = (name: string) => valuesOf(params[name])[0];
  const cmdtype = single('cmdtype');
  const runsNamed = cmdtype === 'runnamed' || (cmdtype === 'dorem' && single('remaction') === 'run');
  const name = single('savedsearch') ?? (runsNamed ? single('namedcmd') : undefined);
  if (name === undefined) return null;
  const sharer = (single('sharer_id') ?? '').trim();
  if (sharer !== '' && !/^\d+$/.test(sharer)) throw errors.notWholeNumber('sharer_id');
  return { name, sharerId: sharer === '' ? null : Number(sharer) };
}

/**
 * The request that runs a saved search, as buglist.cgi runs one: the saved query's criteria
 * replace the request's, and its `order` wins over the request's; the request's page (`limit` and
 * `offset`, `count_only`) wins over one the query saved.
 */
export function withSavedQuery(request: SearchRequest, query: string): SearchRequest {
  const params: Record<string, string[]> = {};
  for (const [name, value] of new URLSearchParams(query)) params[name] = [...(params[name] ?? []), value];
  delete params.savedsearch;
  delete params.cmdtype;
  const stored = parseSearchRequest(params);
  const asked = request.page;
  const page: RequestedPage =
    asked.limit !== undefined
      ? { ...asked, order: stored.page.order ?? asked.order }
      : { ...stored.page, countOnly: asked.countOnly, order: stored.page.order ?? asked.order };
  return { ...stored, page, saved: null };
}

/** The criteria that hold for a caller: those on time-tracking fields for its members only. */
export const criteriaFor = (request: SearchRequest, timeTracker: boolean): SearchNode[] =>
  timeTracker ? [...request.criteria, ...request.timeTrackingCriteria] : request.criteria;

/**
 * A request whose only criteria are `id` or `alias` names its bugs: they are read directly,
 * without the index (python-bugzilla's getbug sends `id=N`). Both together are ANDed, as 5.2
 * ANDs every parameter, which the index answers.
 */
function directReferences(params: Record<string, unknown>, parsed: ParsedParameters): DirectReferences | null {
  if (parsed.quicksearch || parsed.criteria.length === 0 || parsed.timeTrackingCriteria.length > 0) return null;
  const isIdOrAlias = (node: SearchNode) =>
    (node.kind === 'leaf' && node.field === 'bug_id' && !node.negate) ||
    (node.kind === 'or' && node.children.every((child) => child.kind === 'leaf' && child.field === 'alias'));
  if (!parsed.criteria.every(isIdOrAlias)) return null;
  const ids = [...valuesOf(params.id), ...valuesOf(params.bug_id)]
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => /^\d+$/.test(value))
    .map(Number);
  const aliases = valuesOf(params.alias).filter((alias) => alias.trim() !== '');
  return ids.length > 0 && aliases.length > 0 ? null : { ids, aliases };
}

function requestedPage(params: Record<string, unknown>): RequestedPage {
  const number = (name: string) => {
    const raw = valuesOf(params[name])[0];
    if (raw === undefined || raw === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw errors.notWholeNumber(name);
    return value;
  };
  const limit = number('limit');
  const offset = number('offset');
  if (offset !== undefined && limit === undefined)
    throw errors.missingParameter('You must specify a limit when using offset.');
  return {
    limit,
    offset,
    countOnly: ['1', 'true', 'on'].includes(String(valuesOf(params.count_only)[0] ?? '').toLowerCase()),
    order: valuesOf(params.order).join(',') || undefined,
  };
}
