import * as z from 'zod';
import { getAttachments } from '../../shared/application/bug/attachmentReading.ts';
import { prefetchAttachments } from '../../shared/application/bug/bugPrefetch.ts';
import { attachmentResourceFields } from '../../shared/domain/bug/attachment.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list, text } from '../../shared/http/inputSchemas.ts';
import { bugReferences, prefetchNamedBugs, referencesOf } from '../bug/bugInput.ts';

/**
 * GET /rest/bug/{id_or_alias}/attachment (with `ids`) and GET /rest/bug/attachment/{attachment_id}
 * (with `attachment_ids`). `exclude_fields=data` answers from DynamoDB alone, without reading S3.
 */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    ...bugReferences,
    attachment_id: text().optional(),
    attachment_ids: list(z.union([z.string(), z.number()])).optional(),
  }),
  prefetch: prefetchNamedBugs(prefetchAttachments),
  responseFields: {
    bugs: { fields: attachmentResourceFields(), layout: 'byId' },
    attachments: { fields: attachmentResourceFields(), layout: 'byId' },
  },
  run: ({ input, caller, fields }) =>
    getAttachments(
      caller,
      {
        bugs: referencesOf(input),
        attachmentIds: [
          ...(input.attachment_id === undefined ? [] : [input.attachment_id]),
          ...(input.attachment_ids ?? []),
        ],
      },
      fields,
    ),
});
