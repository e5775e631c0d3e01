import * as z from 'zod';
import { forgetSavedSearch } from '../../shared/application/search/savedSearches.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** Tracker addition: `DELETE /rest/saved_search/{id_or_name}` forgets one of the caller's searches. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({ id_or_name: text() }),
  run: ({ input, caller }) => forgetSavedSearch(caller, input.id_or_name),
});
