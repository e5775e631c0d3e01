import * as z from 'zod';
import { apiKeysOf } from '../../shared/application/identity/apiKeys.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** Tracker addition: `GET /rest/user/{id_or_name}/api_key` lists keys, never the keys themselves. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({ id_or_name: text() }),
  responseFields: { api_keys: { fields: {} } },
  run: ({ input, caller }) => apiKeysOf(caller, input.id_or_name),
});
