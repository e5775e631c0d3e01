import * as z from 'zod';
import { renderCommentText } from '../../shared/application/bug/commentRendering.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** POST /rest/bug/comment/render: `text` as safe HTML; `id` names the bug it belongs to. Writes nothing. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ text: text(), id: z.union([z.string(), z.number()]).optional() }),
  invalidInput: (issue, parameter) =>
    parameter === 'text' && issue.code === 'invalid_type' && issue.input === undefined
      ? errors.missingParameter('The function requires a text argument, and that argument was not set.')
      : undefined,
  run: ({ input, caller }) => renderCommentText(caller, input.text, input.id),
});
