import { savedSearchesOf } from '../../shared/application/search/savedSearches.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

/** Tracker addition: `GET /rest/saved_search`, the caller's saved searches and those shared with them. */
export const handler = defineEndpoint({
  access: 'login',
  input: noInput(),
  responseFields: { saved_searches: { fields: {} } },
  run: ({ caller }) => savedSearchesOf(caller),
});
