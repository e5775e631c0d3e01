import * as z from 'zod';
import { findUsers } from '../../shared/application/identity/users.ts';
import { withOwnSavedSearches } from '../../shared/application/search/savedSearches.ts';
import { targetsOf } from '../../shared/domain/objectTargets.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, list, text } from '../../shared/http/inputSchemas.ts';

/** `GET /rest/user` and `GET /rest/user/{id_or_name}` (the path merges with ids/names). */
export const handler = defineEndpoint({
  access: 'public',
  input: z.object({
    id_or_name: text().optional(),
    // No user has id 0: asking for it finds nobody, as asking for any unknown id does.
    ids: list(integer().pipe(z.number().nonnegative())).optional(),
    names: list(z.string(), { splitCommas: false }).optional(),
    match: list(z.string(), { splitCommas: false }).optional(),
    limit: integer().optional(),
    group_ids: list(integer()).optional(),
    groups: list(z.string()).optional(),
    include_disabled: flag().optional(),
  }),
  invalidInput: (_issue, parameter) =>
    parameter.startsWith('ids') || parameter === 'id_or_name'
      ? errors.invalidValue(`Invalid parameter '${parameter}': user ids must be whole numbers, not negative.`)
      : undefined,
  responseFields: { users: { fields: {} } },
  run: async ({ input, caller }) => {
    if (input.id_or_name !== undefined && /^-\d+$/.test(input.id_or_name)) {
      throw errors.invalidValue('Invalid parameter: user ids must be whole numbers, not negative.');
    }
    return withOwnSavedSearches(caller, await findUsers(caller, { ...input, ...targetsOf(input) }));
  },
});
