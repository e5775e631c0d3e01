import * as z from 'zod';
import { createGroup } from '../../shared/application/identity/groups.ts';
import { CREATEGROUPS_GROUP } from '../../shared/domain/identity/groupRules.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, text } from '../../shared/http/inputSchemas.ts';

export const groupInput = {
  name: text().optional(),
  description: text().optional(),
  user_regexp: text().optional(),
  is_active: flag().optional(),
  icon_url: text().optional(),
};

export const handler = defineEndpoint({
  access: {
    group: CREATEGROUPS_GROUP,
    denied: () => errors.onlyGroupMembersMay('create groups', CREATEGROUPS_GROUP),
  },
  input: z.object(groupInput),
  run: ({ input, caller }) => createGroup(caller, input),
});
