import * as z from 'zod';
import { updateGroups } from '../../shared/application/identity/groups.ts';
import { CREATEGROUPS_GROUP } from '../../shared/domain/identity/groupRules.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, list, text } from '../../shared/http/inputSchemas.ts';
import { groupInput } from './createGroup.ts';

const groupReferences = list(z.union([z.number().int(), z.string()]), { splitCommas: false }).optional();

export const handler = defineEndpoint({
  access: {
    group: CREATEGROUPS_GROUP,
    denied: () => errors.onlyGroupMembersMay('edit groups', CREATEGROUPS_GROUP),
  },
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    ...groupInput,
    /** Tracker's extension: the groups whose members this group includes. */
    member_groups: z.object({ add: groupReferences, remove: groupReferences }).optional(),
  }),
  run: ({ input, caller }) => {
    return updateGroups(caller, targetsOf(input), input);
  },
});
