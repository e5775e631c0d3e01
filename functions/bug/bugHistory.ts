import * as z from 'zod';
import { prefetchHistory } from '../../shared/application/bug/bugPrefetch.ts';
import { getBugHistory } from '../../shared/application/bug/bugReading.ts';
import { checkDateTimeParameter } from '../../shared/domain/bug/bugFieldRules.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { bugReferences, prefetchNamedBugs, referencesOf } from './bugInput.ts';

/** GET /rest/bug/{id_or_alias}/history, optionally only what changed after `new_since`. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ ...bugReferences, new_since: text().optional() }),
  prefetch: prefetchNamedBugs(prefetchHistory),
  run: ({ input, caller }) =>
    getBugHistory(
      caller,
      referencesOf(input),
      input.new_since === undefined ? undefined : checkDateTimeParameter('new_since', input.new_since),
    ),
});
