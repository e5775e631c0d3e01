import * as z from 'zod';
import { findKeywords } from '../../shared/application/catalog/keywords.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';

/** `GET /rest/keyword[/{id_or_name}]` (Tracker's addition, public): `{keywords: [{id, name, description, is_active}]}`. */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
  }),
  responseFields: { keywords: { fields: {} } },
  run: ({ input }) => {
    return findKeywords(targetsOf(input));
  },
});
