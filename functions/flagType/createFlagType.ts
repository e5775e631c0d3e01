import * as z from 'zod';
import { createFlagType, FLAG_TYPE_ADMIN_GROUP } from '../../shared/application/catalog/flagTypes.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, text } from '../../shared/http/inputSchemas.ts';

/** Fields of Create and Update Flag Type; lists, sort keys and groups are checked by domain code (1103, 1104, 106, 51). */
export const flagTypeInput = {
  name: text().optional(),
  description: text().optional(),
  target_type: text().optional(),
  inclusions: z.unknown().optional(),
  exclusions: z.unknown().optional(),
  cc_list: z.unknown().optional(),
  sort_key: z.unknown().optional(),
  is_active: flag().optional(),
  is_requestable: flag().optional(),
  is_requesteeble: flag().optional(),
  is_multiplicable: flag().optional(),
  grant_group: z.unknown().optional(),
  request_group: z.unknown().optional(),
};

/** `POST /rest/flag_type`: answers `{id}`. */
export const handler = defineEndpoint({
  access: {
    group: FLAG_TYPE_ADMIN_GROUP,
    denied: () => errors.onlyGroupMembersMay('add flag types', FLAG_TYPE_ADMIN_GROUP),
  },
  input: z.object(flagTypeInput),
  run: ({ input, caller }) => createFlagType(caller, input),
});
