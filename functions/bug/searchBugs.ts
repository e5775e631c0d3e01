import * as z from 'zod';
import { prefetchSearch, searchBugs } from '../../shared/application/search/bugSearch.ts';
import { bugResourceFields } from '../../shared/domain/bug/bugView.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { SEARCH_CRITERIA } from './bugFieldInput.ts';

/** GET /rest/bug: search. Criteria are Bugzilla's parameters (searchQuery.ts, quicksearch.ts). */
export const handler = defineEndpoint({
  access: 'public',
  input: z.looseObject(SEARCH_CRITERIA),
  prefetch: prefetchSearch,
  responseFields: { bugs: { fields: bugResourceFields() } },
  run: ({ input, caller, fields }) => searchBugs(caller, input as Record<string, unknown>, fields),
});
