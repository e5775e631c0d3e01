import * as z from 'zod';
import { prefetchSearchIndex } from '../../shared/application/search/bugSearch.ts';
import { possibleDuplicates } from '../../shared/application/search/possibleDuplicates.ts';
import { bugResourceFields } from '../../shared/domain/bug/bugView.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';

/** GET /rest/bug/possible_duplicates: `id` or `summary`, `product`, `limit`; best matches first. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.looseObject({}),
  prefetch: prefetchSearchIndex,
  responseFields: { bugs: { fields: bugResourceFields() } },
  run: ({ input, caller, fields }) => possibleDuplicates(caller, input as Record<string, unknown>, fields),
});
