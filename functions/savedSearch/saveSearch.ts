import * as z from 'zod';
import { saveSearch } from '../../shared/application/search/savedSearches.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { savedSearchFields } from './savedSearchInput.ts';

/** Tracker addition: `POST /rest/saved_search` saves (or replaces, by name) a search of the caller's. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    name: text().meta({
      description: 'Its name: at most 64 characters, none of `<>&`; unique per person, whatever its case.',
    }),
    query: savedSearchFields.query,
    shared_with_group: savedSearchFields.shared_with_group.optional(),
  }),
  run: ({ input, caller }) => saveSearch(caller, input),
});
