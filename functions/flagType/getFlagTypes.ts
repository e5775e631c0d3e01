import * as z from 'zod';
import { getFlagTypes } from '../../shared/application/catalog/flagTypes.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * `GET /rest/flag_type/{product}` and `GET /rest/flag_type/{product}/{component}` (the path
 * segment is named id_or_name on every flag_type route): `{bug: [...], attachment: [...]}`.
 * Tracker's addition: `GET /rest/flag_type/{id}` answers `{flag_types: [...]}` when no product
 * has that name.
 */
const fields = { fields: {} };

export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ id_or_name: text(), component: text().optional() }),
  responseFields: { bug: fields, attachment: fields, flag_types: fields },
  run: ({ input, caller }) => getFlagTypes(caller, { product: input.id_or_name, component: input.component }),
});
