import * as z from 'zod';
import { searchCommentTags } from '../../shared/application/bug/comments.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, text } from '../../shared/http/inputSchemas.ts';

/** GET /rest/bug/comment/tags/{query}: tags in use containing the text (`limit`, default 10). */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({ query: text(), limit: integer().optional() }),
  run: ({ input, caller }) => searchCommentTags(caller, input.query, input.limit),
});
