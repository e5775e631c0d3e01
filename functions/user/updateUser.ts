import * as z from 'zod';
import { updateUsers } from '../../shared/application/identity/users.ts';
import { EDITUSERS_GROUP } from '../../shared/domain/identity/userView.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

const groupReferences = list(z.union([z.number().int(), z.string()]), { splitCommas: false }).optional();
const membershipChange = z.object({ add: groupReferences, remove: groupReferences, set: groupReferences }).optional();

export const handler = defineEndpoint({
  access: {
    group: EDITUSERS_GROUP,
    denied: () => errors.onlyGroupMembersMay('edit users', EDITUSERS_GROUP),
  },
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer().pipe(z.number().positive())).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    full_name: text().optional(),
    email: text().optional(),
    password: text().optional(),
    email_enabled: flag().optional(),
    login_denied_text: text().optional(),
    password_change_required: flag().optional(),
    groups: membershipChange,
    bless_groups: membershipChange,
  }),
  run: ({ input, caller }) => {
    return updateUsers(caller, targetsOf(input), input);
  },
});
