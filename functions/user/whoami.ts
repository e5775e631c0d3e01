import { describeCaller } from '../../shared/application/identity/whoami.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({
  access: 'login',
  input: noInput(),
  run: ({ caller }) => describeCaller(caller),
});
