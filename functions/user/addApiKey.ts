import * as z from 'zod';
import { addApiKey } from '../../shared/application/identity/apiKeys.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/** Tracker addition: `POST /rest/user/{id_or_name}/api_key` → `{id, api_key}`, the key shown only here. */
export const handler = defineEndpoint({
  access: 'login',
  input: z.object({ id_or_name: text(), description: text().optional() }),
  run: ({ input, caller }) => addApiKey(caller, input.id_or_name, input.description),
});
