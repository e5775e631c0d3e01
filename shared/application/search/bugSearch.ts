import type { Bug } from '../../domain/bug/bug.ts';
import { canSeeBug, isInsider, isTimeTracker } from '../../domain/bug/bugAccess.ts';
import { commentText, mayReadComment } from '../../domain/bug/bugComments.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { compileSearch } from '../../domain/search/evaluation/criterionCompiler.ts';
import { type SearchEnvironment, TRUE } from '../../domain/search/evaluation/searchEnvironment.ts';
import { evaluateSearch, keptMatches } from '../../domain/search/evaluation/searchEvaluation.ts';
import {
  type OrderNames,
  orderComparator,
  orderNeedsUsers,
  valueOrderNames,
} from '../../domain/search/evaluation/searchOrdering.ts';
import { candidateSlots, userNeeds, validateSearch } from '../../domain/search/evaluation/searchPlanner.ts';
import { visibilityTest } from '../../domain/search/evaluation/searchVisibility.ts';
import { SearchIndex } from '../../domain/search/index/searchIndex.ts';
import {
  countVisible,
  countVisibleBits,
  firstMatchesById,
  firstVisibleBitsById,
  inIdOrder,
  visibleMatches,
} from '../../domain/search/page/firstMatches.ts';
import { parseQuicksearch } from '../../domain/search/query/quicksearch.ts';
import { and, type SearchNode } from '../../domain/search/query/searchQuery.ts';
import {
  criteriaFor,
  parseSearchRequest,
  type RequestedPage,
  type SearchRequest,
  withSavedQuery,
} from '../../domain/search/query/searchRequest.ts';
import { errors } from '../../errors.ts';
import { oncePerRequest, requestLocal } from '../../runtime/requestScope.ts';
import { findBugIdByAlias, loadBugs, loadComments } from '../../storage/bug/bugStore.ts';
import { findUserIdByLogin, listAllUsers } from '../../storage/identity/userStore.ts';
import { type BugCatalog, loadBugCatalog, usersById } from '../bug/bugContext.ts';
import { prefetchBugs } from '../bug/bugPrefetch.ts';
import { savedSearchQuery } from './savedSearches.ts';
import { currentSearchState, searchWithParts } from './searchIndexHolder.ts';
import { callerGroupIds, renderSearchPage } from './searchPage.ts';

/** The index and bug copies, caught up once per request (the prefetch may have started it). */
export const requestSearch = () => oncePerRequest('searchIndex', currentSearchState);

/**
 * GET /rest/bug's prefetch (endpointChain.ts): the bugs that `id=` names, read directly as
 * python-bugzilla's getbug asks for them, or else the index's catch-up with the change log, either
 * side by side with authentication. Nothing is shown from here.
 */
export const prefetchSearchIndex = async (): Promise<unknown> => requestSearch();

export async function prefetchSearch(request: SearchRequest): Promise<unknown> {
  if (!request.direct) return requestSearch();
  return prefetchBugs(request.direct.ids);
}

/**
 * The request's search parameters, parsed once per request (the prefetch and the search share
 * it): the one value the rest of the search reads, never the raw parameters.
 */
export const searchRequestOf = (params: Record<string, unknown>): SearchRequest =>
  requestLocal('searchRequest', () => parseSearchRequest(params)) ?? parseSearchRequest(params);

/**
 * GET /rest/bug and GET /rest/bug/possible_duplicates (docs/data-model.md §8.7). Criteria are
 * evaluated against this instance's in-memory index, brought up to date with the change log
 * first; visibility is applied before counting and paging; only the page's bugs are read from
 * the table (strongly consistent BatchGet) and rendered as Get Bug renders them.
 */

/** At most this many bugs have their comments read for one comment-text criterion. */
const MAX_COMMENT_READS = 5_000;

interface Paging {
  limit: number;
  offset: number;
  countOnly: boolean;
  order?: string;
}

function pagingOf(page: RequestedPage, maximum: number): Paging {
  const { limit, offset, countOnly, order } = page;
  return {
    limit: limit === undefined || limit === 0 || limit > maximum ? maximum : limit,
    offset: offset ?? 0,
    countOnly,
    order,
  };
}

export async function searchEnvironment(
  caller: Caller,
  bugCatalog: BugCatalog,
  index: SearchIndex,
  tree: SearchNode,
): Promise<SearchEnvironment> {
  const needs = userNeeds(tree);
  const callerLogin = caller.user?.login ?? '';
  const logins = [...needs.logins].filter((login) => login !== callerLogin.toLowerCase());
  const [ids, allUsers] = await Promise.all([
    Promise.all(logins.map((login) => findUserIdByLogin(login))),
    needs.all ? listAllUsers() : Promise.resolve(undefined),
  ]);
  const loginIds = new Map<string, number>();
  logins.forEach((login, position) => {
    const id = ids[position];
    if (id !== null) loginIds.set(login, id);
  });
  if (caller.user) loginIds.set(callerLogin.toLowerCase(), caller.user.id);
  const { catalog } = bugCatalog;
  return {
    index,
    callerId: caller.user?.id ?? 0,
    callerLogin,
    products: catalog.products,
    classifications: catalog.classifications,
    values: catalog.fieldValues,
    groups: catalog.groups,
    keywords: bugCatalog.keywords,
    flagTypes: catalog.flagTypes,
    loginIds,
    allUsers: allUsers?.map((user) => ({ id: user.id, login: user.login, realName: user.realName })),
    now: Date.now(),
    insider: isInsider(caller, catalog.parameters),
    timeTracker: isTimeTracker(caller, catalog.parameters),
  };
}

/** The visible rows that match, in the order asked. */
async function matchingSlots(
  caller: Caller,
  bugCatalog: BugCatalog,
  index: SearchIndex,
  tree: SearchNode,
  paging: Paging,
): Promise<Int32Array | number> {
  validateSearch(tree, { timeTracker: isTimeTracker(caller, bugCatalog.catalog.parameters) });
  const env = await searchEnvironment(caller, bugCatalog, index, tree);
  const visible = visibilityTest(
    index,
    env.callerId,
    callerGroupIds(caller, bugCatalog),
    bugCatalog.catalog.parameters.or_groups === '1',
  );
  // A result kept between searches gives its matching slots directly (all TRUE); otherwise the
  // tree is evaluated over the required products' slots, or every slot.
  // count_only of criteria that bitmaps decide whole: counted from the bits, no list built (faster
  // than a kept list of a quarter of a million bugs), so planned before the kept lists are tried.
  const early = paging.countOnly ? candidateSlots(env, tree) : undefined;
  const rest = early?.rest;
  if (early?.bits && rest?.kind === 'and' && rest.children.length === 0)
    return countVisibleBits(index, early.bits, visible);
  const kept = keptMatches(env, tree);
  const planned = kept ? null : early !== undefined ? early : candidateSlots(env, tree);
  const tested = planned?.rest ?? tree;
  // A page by bug id of a search that finds more than it shows stops once the page is full:
  // read from the bitmaps when they decide the whole search, else tested a chunk at a time.
  const wanted = paging.offset + paging.limit;
  const byId = !paging.countOnly && !paging.order && wanted > 0;
  if (!kept && byId && planned?.bits && tested.kind === 'and' && tested.children.length === 0)
    return firstVisibleBitsById(index, planned.bits, wanted, visible);
  const candidates = kept ?? planned?.slots ?? index.allSlots();
  if (!kept && byId && wanted * 2 < candidates.length) {
    const first = firstMatchesById(env, tested, candidates, wanted, visible);
    if (first) return first;
  }
  const truths = kept ? new Uint8Array(kept.length).fill(TRUE) : evaluateSearch(env, tested, candidates);
  // count_only with nothing left to decide from comments: counted, no list built.
  const counted = paging.countOnly ? countVisible(truths, candidates, index.restricted, visible) : null;
  if (counted !== null) return counted;
  const found = visibleMatches(truths, candidates, index.restricted, visible);
  const { undecided } = found;
  let { matches } = found;
  if (undecided.length > 0) {
    // Comment text is not in the index: read the comments of the bugs still undecided.
    if (undecided.length > MAX_COMMENT_READS) {
      throw errors.invalidParameter(
        `This search would read the comments of ${undecided.length} bugs; narrow it with other criteria (at most ${MAX_COMMENT_READS}).`,
      );
    }
    const parameters = bugCatalog.catalog.parameters;
    const comments = new Map<number, Array<{ text: string; creatorId: number; count: number }>>();
    for (let start = 0; start < undecided.length; start += 32) {
      const ids = undecided.slice(start, start + 32).map((slot) => index.id[slot]);
      const read = await Promise.all(ids.map((id) => loadComments(id)));
      ids.forEach((id, position) => {
        const readable = read[position].filter((comment) => mayReadComment(caller, parameters, comment));
        comments.set(
          id,
          readable.map((comment) => ({
            text: commentText(comment),
            creatorId: comment.creatorId,
            count: comment.count,
          })),
        );
      });
    }
    const exact = compileSearch({ ...env, comments }, tree);
    const decided = undecided.filter((slot) => exact(slot) === TRUE);
    const all = new Int32Array(matches.length + decided.length);
    all.set(matches);
    all.set(decided, matches.length);
    matches = all;
  }
  if (paging.countOnly) return matches.length;
  if (!paging.order && undecided.length === 0) return inIdOrder(index, matches);
  const names = await orderNames(bugCatalog, paging.order, () =>
    Array.from(matches).flatMap((slot) => [index.assigneeId[slot]!, index.reporterId[slot]!, index.qaContactId[slot]!]),
  );
  return matches.sort(
    orderComparator(index, paging.order, names, { insider: env.insider, timeTracker: env.timeTracker === true }),
  );
}

/**
 * The names `order` sorts by: products, components and field values from the catalogue, and
 * logins, read only when the order names a person column (`people` gives the ids, 0 for none).
 */
async function orderNames(
  bugCatalog: BugCatalog,
  order: string | undefined,
  people: () => number[],
): Promise<OrderNames> {
  const users = orderNeedsUsers(order) ? await usersById([...new Set(people().filter((id) => id !== 0))]) : new Map();
  const products = new Map(bugCatalog.catalog.products.map((record) => [record.product.id, record.product.name]));
  const components = new Map(
    bugCatalog.catalog.products
      .flatMap((record) => record.components)
      .map((component) => [component.id, component.name]),
  );
  return {
    login: (id) => users.get(id)?.login ?? '',
    product: (id) => products.get(id) ?? '',
    component: (id) => components.get(id) ?? '',
    ...valueOrderNames(bugCatalog.catalog.products),
    values: bugCatalog.catalog.fieldValues,
  };
}

/** Direct reads in the order asked: by id, or through the index's comparator when `order` names columns. */
async function sortBugs(
  caller: Caller,
  bugs: readonly Bug[],
  order: string | undefined,
  bugCatalog: BugCatalog,
): Promise<number[]> {
  const ids = bugs.map((bug) => bug.id).sort((a, b) => a - b);
  if (!order || ids.length < 2) return ids;
  const scratch = new SearchIndex();
  for (const bug of bugs) scratch.apply({ bug, rev: 1 });
  const names = await orderNames(bugCatalog, order, () =>
    bugs.flatMap((bug) => [bug.assigneeId, bug.reporterId, bug.qaContactId ?? 0]),
  );
  const slots = bugs
    .map((_, slot) => slot)
    .sort(
      orderComparator(scratch, order, names, {
        insider: isInsider(caller, bugCatalog.catalog.parameters),
        timeTracker: isTimeTracker(caller, bugCatalog.catalog.parameters),
      }),
    );
  return slots.map((slot) => scratch.id[slot]);
}

export async function searchBugs(caller: Caller, asked: SearchRequest, fields: FieldSelection) {
  // A saved search run by name: its own criteria, never the request's nor every bug.
  const request = asked.saved
    ? withSavedQuery(asked, await savedSearchQuery(caller, asked.saved.name, asked.saved.sharerId))
    : asked;
  const bugCatalog = await loadBugCatalog();
  const parameters = bugCatalog.catalog.parameters;
  const paging = pagingOf(request.page, Number(parameters.max_search_results) || 10_000);
  const given = criteriaFor(request, isTimeTracker(caller, parameters));
  if (given.length === 0 && !request.quicksearch && parameters.search_allow_no_criteria !== '1') {
    throw errors.searchCriteriaRequired();
  }

  const { direct } = request;
  if (direct) {
    const aliasIds = await Promise.all(direct.aliases.map((alias) => findBugIdByAlias(alias)));
    const ids = [...new Set([...direct.ids, ...aliasIds.filter((id): id is number => id !== null)])];
    const stored = await loadBugs(ids);
    const groupName = (id: number) => bugCatalog.catalog.groups.find((group) => group.id === id)?.name;
    const visible = [...stored.values()]
      .map((entry) => entry.bug)
      .filter((bug) => canSeeBug(caller, bug, groupName, parameters.or_groups === '1'));
    if (paging.countOnly) return { bug_count: visible.length };
    const sorted = await sortBugs(caller, visible, paging.order, bugCatalog);
    return { bugs: await renderSearchPage(caller, sorted.slice(paging.offset, paging.offset + paging.limit), fields) };
  }

  const search = await requestSearch();
  const { index } = search;
  const criteria = [...given];
  if (request.quicksearch) {
    const plan = parseQuicksearch(request.quicksearch, bugCatalog.catalog.fieldValues, {
      keywords: bugCatalog.keywords.map((keyword) => keyword.name),
      customFields: bugCatalog.customFields.filter((field) => !field.isObsolete).map((field) => field.name),
      // A status named beside the quicksearch replaces its open-bugs default, as in 5.2.
      statusGiven: request.statusGiven,
    });
    criteria.push(plan.node);
  }
  const tree = and(criteria);
  const slots = await searchWithParts(search, () => matchingSlots(caller, bugCatalog, index, tree, paging));
  if (typeof slots === 'number') return { bug_count: slots };
  if (paging.countOnly) return { bug_count: slots.length };
  const page = Array.from(slots.subarray(paging.offset, paging.offset + paging.limit), (slot) => index.id[slot]!);
  return { bugs: await renderSearchPage(caller, page, fields, search) };
}

// ---- possible duplicates ---------------------------------------------------------------------
