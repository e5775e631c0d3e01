import * as z from 'zod';
import { removeFlagType } from '../../shared/application/catalog/flagTypeRemoval.ts';
import { FLAG_TYPE_ADMIN_GROUP } from '../../shared/application/catalog/flagTypes.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** `DELETE /rest/flag_type/{id_or_name}` (Tracker's addition); refused while flags of it are set. Answers `{flagtypes: [{id}]}`. */
export const handler = defineEndpoint({
  access: {
    group: FLAG_TYPE_ADMIN_GROUP,
    denied: () => errors.onlyGroupMembersMay('delete flag types', FLAG_TYPE_ADMIN_GROUP),
  },
  input: z.object({ id_or_name: text() }),
  run: ({ input, caller }) => removeFlagType(caller, targetsOf(input)),
});
