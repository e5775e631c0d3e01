import * as z from 'zod';
import { updateFields } from '../../shared/application/catalog/fields.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { adminOnly, fieldInput, fieldProperties, valueInput } from './createField.ts';

/**
 * `PUT /rest/field/bug/{id_or_name}` (Tracker's addition): changes custom fields; values change
 * with `{"values": {"add": [...], "remove": [...]}}`. Answers `{fields: [{id, name, changes}]}`.
 */
export const handler = defineEndpoint({
  access: adminOnly('edit'),
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    ...fieldProperties,
    values: z
      .object({
        add: list(valueInput, { splitCommas: false }).optional(),
        remove: list(z.string(), { splitCommas: false }).optional(),
      })
      .optional(),
  }),
  run: ({ input, caller }) => {
    return updateFields(caller, targetsOf(input), { ...fieldInput(input), values: input.values });
  },
});
