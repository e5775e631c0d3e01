import * as z from 'zod';
import { findGroups } from '../../shared/application/identity/groups.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

/** `GET /rest/group` and `GET /rest/group/{id_or_name}` (the path merges with ids/names). */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    id_or_name: text().optional(),
    ids: list(integer()).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    membership: flag().optional(),
  }),
  responseFields: { groups: { fields: { nested: { membership: {} } } } },
  run: ({ input, caller }) => {
    return findGroups(caller, { ...targetsOf(input), membership: input.membership });
  },
});
