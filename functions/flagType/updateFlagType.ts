import * as z from 'zod';
import { FLAG_TYPE_ADMIN_GROUP, updateFlagTypes } from '../../shared/application/catalog/flagTypes.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { flagTypeInput } from './createFlagType.ts';

/** `PUT /rest/flag_type/{id_or_name}`; `ids` and `names` add more types. Answers `{flagtypes: [{id, name, changes}]}`. */
export const handler = defineEndpoint({
  access: {
    group: FLAG_TYPE_ADMIN_GROUP,
    denied: () => errors.onlyGroupMembersMay('edit flag types', FLAG_TYPE_ADMIN_GROUP),
  },
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    ...flagTypeInput,
  }),
  run: ({ input, caller }) => {
    return updateFlagTypes(caller, targetsOf(input), input);
  },
});
