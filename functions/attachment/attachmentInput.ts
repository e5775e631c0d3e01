import * as z from 'zod';

/**
 * What creating and changing an attachment both take; the attachment rules check each field
 * with Bugzilla's codes (601, 603, 604, 129–134, 140), so the schema only names them.
 */
export const attachmentFields = {
  file_name: z.unknown().optional(),
  summary: z.unknown().optional(),
  content_type: z.unknown().optional(),
  comment: z.unknown().optional(),
  is_patch: z.unknown().optional(),
  is_private: z.unknown().optional(),
  is_markdown: z.unknown().optional(),
  flags: z.unknown().optional(),
  bug_flags: z.unknown().optional(),
};
