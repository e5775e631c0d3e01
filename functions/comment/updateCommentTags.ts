import * as z from 'zod';
import { updateCommentTags } from '../../shared/application/bug/comments.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** PUT /rest/bug/comment/{comment_id}/tags with `add` and `remove`: answers the comment's tags. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({ comment_id: text(), add: z.unknown().optional(), remove: z.unknown().optional() }),
  run: ({ input, caller }) => updateCommentTags(caller, input.comment_id, input.add, input.remove),
});
