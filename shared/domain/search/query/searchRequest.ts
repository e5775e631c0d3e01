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

export interface SearchRequest extends ParsedParameters {
  /** A status named beside the quicksearch replaces its open-bugs default, as in 5.2. */
  statusGiven: boolean;
  direct: DirectReferences | null;
  page: RequestedPage;
}

export function parseSearchRequest(params: Record<string, unknown>): SearchRequest {
  const parsed = parseSearchParameters(params);
  return {
    ...parsed,
    statusGiven: valuesOf(params.status).length + valuesOf(params.bug_status).length > 0,
    direct: directReferences(params, parsed),
    page: requestedPage(params),
  };
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
