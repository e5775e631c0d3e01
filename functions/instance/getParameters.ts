import { parametersFor } from '../../shared/application/instance/parameters.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: noInput(),
  // As in Bugzilla, include_fields / exclude_fields pick parameters by name.
  responseFields: { parameters: { fields: {}, layout: 'single' } },
  run: ({ caller }) => parametersFor(caller),
});
