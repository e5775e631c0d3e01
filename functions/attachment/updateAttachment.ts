import * as z from 'zod';
import { updateAttachments } from '../../shared/application/bug/attachmentUpdate.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list, text } from '../../shared/http/inputSchemas.ts';
import { attachmentFields } from './attachmentInput.ts';

/** PUT /rest/bug/attachment/{attachment_id}: the path's attachment and any `ids` change alike. */
export const handler = defineEndpoint({
  access: 'login',
  // Bugzilla's 114 for an over-long comment comes from the comment rules, not the generic limit.
  longText: ['comment'],
  input: z.object({
    attachment_id: text().optional(),
    ids: list(z.union([z.string(), z.number()])).optional(),
    ...attachmentFields,
    is_obsolete: z.unknown().optional(),
  }),
  run: ({ input, caller }) => {
    const { attachment_id, ids, ...changes } = input;
    return updateAttachments(
      caller,
      [...(attachment_id === undefined ? [] : [attachment_id]), ...(ids ?? [])],
      changes,
    );
  },
});
