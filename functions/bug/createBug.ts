import * as z from 'zod';
import { prefetchNewBug } from '../../shared/application/bug/bugPrefetch.ts';
import { createBug } from '../../shared/application/bug/bugWriting.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { NEW_BUG_FIELDS, NEW_BUG_REQUIRED } from './bugFieldInput.ts';

/** POST /rest/bug: every field is checked by the bug rules (bugCreation.ts), each with Bugzilla's code. */
export const handler = defineEndpoint({
  access: 'login',
  // Longer than the generic text limit only to be refused with Bugzilla's own code (114) by the bug rules.
  longText: ['description'],
  input: z.looseObject(NEW_BUG_FIELDS).meta({ required: [...NEW_BUG_REQUIRED] }),
  prefetch: prefetchNewBug,
  run: ({ input, caller }) => createBug(caller, input as Record<string, unknown>, 'api'),
});
