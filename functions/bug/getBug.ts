import * as z from 'zod';
import { prefetchBugs } from '../../shared/application/bug/bugPrefetch.ts';
import { getBugs } from '../../shared/application/bug/bugReading.ts';
import { bugResourceFields } from '../../shared/domain/bug/bugView.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag } from '../../shared/http/inputSchemas.ts';
import { bugReferences, prefetchNamedBugs, referencesOf } from './bugInput.ts';

/** GET /rest/bug/{id_or_alias} (with `ids` for more); `permissive` turns errors into `faults`. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ ...bugReferences, permissive: flag().optional() }),
  prefetch: prefetchNamedBugs(prefetchBugs),
  responseFields: { bugs: { fields: bugResourceFields() } },
  run: ({ input, caller, fields }) => getBugs(caller, referencesOf(input), fields, { permissive: input.permissive }),
});
