import * as z from 'zod';
import { changeApiKey } from '../../shared/application/identity/apiKeys.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, integer, text } from '../../shared/http/inputSchemas.ts';

/** Tracker addition: `PUT /rest/user/{id_or_name}/api_key/{key_id}` with `revoked` and/or `description`. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({
    id_or_name: text(),
    key_id: integer(),
    revoked: flag().optional(),
    description: text().optional(),
  }),
  run: ({ input, caller }) => changeApiKey(caller, input.id_or_name, input.key_id, input),
});
