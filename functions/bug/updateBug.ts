import * as z from 'zod';
import { prefetchBugUpdate } from '../../shared/application/bug/bugPrefetch.ts';
import { updateBugs } from '../../shared/application/bug/bugWriting.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { BUG_CHANGE_FIELDS } from './bugFieldInput.ts';
import { bugReferences, prefetchNamedBugs, referencesOf } from './bugInput.ts';

/** PUT /rest/bug/{id_or_alias} and `ids`: the path's bug and the `ids` are all updated, together. */
export const handler = defineEndpoint({
  access: 'login',
  // Longer than the generic text limit only to be refused with Bugzilla's own code (114) by the bug rules.
  longText: ['comment'],
  input: z.looseObject({ ...bugReferences, ...BUG_CHANGE_FIELDS }),
  prefetch: prefetchNamedBugs(prefetchBugUpdate),
  run: ({ input, caller }) => {
    const { id_or_alias, ids, ...changes } = input;
    return updateBugs(caller, referencesOf({ id_or_alias, ids }), changes);
  },
});
