import * as z from 'zod';
import { renderCommentText } from '../../shared/application/commentRendering.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** POST /rest/bug/comment/render: `text` as safe HTML; `id` names the bug it belongs to. Writes nothing. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ text: text(), id: z.union([z.string(), z.number()]).optional() }),
  run: ({ input, caller }) => renderCommentText(caller, input.text, input.id),
});
