import * as z from 'zod';
import { updateBugTags } from '../../shared/application/bug/bugActivity.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { bugReferences, referencesOf } from './bugInput.ts';

/** PUT /rest/bug/{id_or_alias}/tags: the caller's personal tags; `{add, remove}` at the top or inside `tags`. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    ...bugReferences,
    tags: z.unknown().optional(),
    add: z.unknown().optional(),
    remove: z.unknown().optional(),
    set: z.unknown().optional(),
  }),
  run: ({ input, caller }) => {
    const change =
      input.tags ??
      Object.fromEntries(
        Object.entries({ add: input.add, remove: input.remove, set: input.set }).filter(
          ([, value]) => value !== undefined,
        ),
      );
    return updateBugTags(caller, referencesOf(input), change);
  },
});
