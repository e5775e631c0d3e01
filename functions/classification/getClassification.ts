import * as z from 'zod';
import { getClassifications } from '../../shared/application/catalog/classifications.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { list, text } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    id_or_name: text(),
    ids: list(z.string()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
  }),
  responseFields: { classifications: { fields: { nested: { products: {} } } } },
  run: ({ input, caller }) =>
    getClassifications(caller, [input.id_or_name, ...(input.ids ?? []), ...(input.names ?? [])]),
});
