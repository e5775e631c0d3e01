import * as z from 'zod';
import { text } from '../../shared/http/inputSchemas.ts';

/** What the saved-search routes take, described for the OpenAPI document. */
export const savedSearchFields = {
  query: text().meta({
    description:
      'A buglist query string (`product=Foo&bug_status=NEW`) or a whole buglist.cgi address, as Bugzilla stores it: empty parameters, credentials, paging and response fields are dropped.',
  }),
  shared_with_group: z
    .preprocess((value) => (Array.isArray(value) ? value.at(-1) : value), z.string().nullable())
    .meta({
      description:
        'Share with this group (one the caller is in; the caller must be in the `querysharegroup` parameter\'s group), or null/"" to stop sharing.',
    }),
};
