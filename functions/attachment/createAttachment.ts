import * as z from 'zod';
import { createAttachments } from '../../shared/application/bug/attachmentCreation.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { bugReferences, referencesOf } from '../bug/bugInput.ts';
import { attachmentFields } from './attachmentInput.ts';

/**
 * POST /rest/bug/{id_or_alias}/attachment: the path's bug gets the file (`data`, base64), whatever
 * `ids` the body names (the spec: the path's bug_id overrides any body value, as Bugzilla's REST
 * path does). Answers `{"ids": [...]}`.
 */
export const handler = defineEndpoint({
  access: 'login',
  // `data` is bounded by maxattachmentsize (600) and the comment by Bugzilla's 114, not by the generic text limit.
  longText: ['data', 'comment'],
  input: z.object({
    ...bugReferences,
    ...attachmentFields,
    data: z.unknown().optional(),
    obsoletes: z.unknown().optional(),
  }),
  run: ({ input, caller }) => {
    const { id_or_alias, ids, ...attachment } = input;
    return createAttachments(caller, referencesOf(id_or_alias === undefined ? { ids } : { id_or_alias }), attachment);
  },
});
