import * as z from 'zod';
import { getLegalValues } from '../../shared/application/catalog/fields.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * `GET /rest/field/bug/{id_or_name}/values` and `.../{id_or_name}/{product_id}/values`
 * (deprecated Legal Values). The path segment carries the field's name; it has the same
 * parameter name as the sibling `GET /rest/field/bug/{id_or_name}` route.
 */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({ id_or_name: text(), product_id: text().optional() }),
  run: ({ input, caller }) => getLegalValues(caller, input.id_or_name, input.product_id),
});
