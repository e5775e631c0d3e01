import * as z from 'zod';
import { downloadAttachment } from '../../shared/application/bug/attachmentReading.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * GET /rest/bug/attachment/{attachment_id}/download (Tracker's addition): a presigned S3 address
 * valid for five minutes, so large files download straight from S3 and never pass through Lambda.
 */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ attachment_id: text() }),
  run: ({ input, caller }) => downloadAttachment(caller, input.attachment_id),
});
