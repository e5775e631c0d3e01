import * as z from 'zod';
import { getFields } from '../../shared/application/catalog/fields.ts';
import { EXTRA_FIELD_PROPERTIES } from '../../shared/domain/catalog/fieldViews.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';

/** `GET /rest/field/bug` and `GET /rest/field/bug/{id_or_name}` (the path merges with ids/names). */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
  }),
  responseFields: {
    fields: { fields: { extra: EXTRA_FIELD_PROPERTIES, nested: { values: { nested: { can_change_to: {} } } } } },
  },
  run: ({ input, caller, fields }) => {
    return getFields(caller, { ...targetsOf(input), withValues: fields.wants('values') });
  },
});
