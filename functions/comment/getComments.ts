import * as z from 'zod';
import { prefetchComments } from '../../shared/application/bug/bugPrefetch.ts';
import { getComments } from '../../shared/application/bug/comments.ts';
import { checkDateTimeParameter } from '../../shared/domain/bug/bugFieldRules.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list, text } from '../../shared/http/inputSchemas.ts';
import { bugReferences, prefetchNamedBugs, referencesOf } from '../bug/bugInput.ts';

/**
 * GET /rest/bug/{id_or_alias}/comment (with `ids` for more bugs, `new_since`) and
 * GET /rest/bug/comment/{comment_id} (with `comment_ids`). Field selection applies to each
 * comment, so it is done here rather than by the middleware.
 */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    ...bugReferences,
    comment_id: text().optional(),
    comment_ids: list(z.union([z.string(), z.number()])).optional(),
    new_since: text().optional(),
  }),
  prefetch: prefetchNamedBugs(prefetchComments),
  run: ({ input, caller, fields }) =>
    getComments(
      caller,
      {
        bugs: referencesOf(input),
        commentIds: [...(input.comment_id === undefined ? [] : [input.comment_id]), ...(input.comment_ids ?? [])],
        newSince: input.new_since === undefined ? undefined : checkDateTimeParameter('new_since', input.new_since),
      },
      fields,
    ),
});
