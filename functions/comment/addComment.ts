import * as z from 'zod';
import { addComment } from '../../shared/application/bug/comments.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag } from '../../shared/http/inputSchemas.ts';
import { bugReferences, referencesOf } from '../bug/bugInput.ts';

/** POST /rest/bug/{id_or_alias}/comment: answers the new comment's id. */
export const handler = defineEndpoint({
  access: 'login',
  // Bugzilla's 114 for an over-long comment comes from the comment rules, not the generic limit.
  longText: ['comment'],
  input: z.object({
    ...bugReferences,
    comment: z.unknown().optional(),
    is_private: flag().optional(),
    /** Bugzilla before 3.6 named is_private so; 5.2 still reads it as is_private, which it replaces. */
    private: flag().optional(),
    is_markdown: flag().optional(),
    work_time: z.unknown().optional(),
  }),
  run: ({ input, caller }) =>
    addComment(caller, referencesOf(input), { ...input, is_private: input.private ?? input.is_private }),
});
