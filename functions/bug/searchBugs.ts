import * as z from 'zod';
import { prefetchSearch, searchBugs, searchRequestOf } from '../../shared/application/search/bugSearch.ts';
import { bugResourceFields } from '../../shared/domain/bug/bugView.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { SEARCH_CRITERIA } from './bugFieldInput.ts';

/** GET /rest/bug: search. Criteria are Bugzilla's parameters (searchQuery.ts, quicksearch.ts). */
export const handler = defineEndpoint({
  access: 'public',
  input: z.looseObject(SEARCH_CRITERIA),
  // The parameters are parsed once per request, into the value the search passes on.
  prefetch: (params) => prefetchSearch(searchRequestOf(params)),
  responseFields: { bugs: { fields: bugResourceFields() } },
  run: ({ input, caller, fields }) => searchBugs(caller, searchRequestOf(input as Record<string, unknown>), fields),
});
