import * as z from 'zod';
import { changeSavedSearch } from '../../shared/application/search/savedSearches.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { savedSearchFields } from './savedSearchInput.ts';

/** Tracker addition: `PUT /rest/saved_search/{id_or_name}` changes the query or the sharing of one's own search. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    id_or_name: text(),
    query: savedSearchFields.query.optional(),
    shared_with_group: savedSearchFields.shared_with_group.optional(),
  }),
  run: ({ input, caller }) => changeSavedSearch(caller, input.id_or_name, input),
});
