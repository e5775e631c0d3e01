import { visibleParameters } from '../../shared/domain/instance/parameters.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';
import { loadParameters } from '../../shared/storage/instance/parameterStore.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: noInput(),
  // As in Bugzilla, include_fields / exclude_fields pick parameters by name.
  responseFields: { parameters: { fields: {}, layout: 'single' } },
  run: async ({ caller }) => ({ parameters: visibleParameters(caller, await loadParameters()) }),
});
