import * as z from 'zod';
import { updateFieldValue } from '../../shared/application/catalog/fieldValues.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { adminsOnly, valueInput, valueProperties } from './fieldValueEndpoints.ts';

/**
 * `PUT /rest/field/bug/{id_or_name}/values/{value}` (Tracker's addition, Bugzilla's
 * editvalues.cgi): renames a legal value (every bug shows the new name at once), changes its sort
 * key, or disables or enables it. Answers `{values: [{field, name, changes}]}`.
 */
export const handler = defineEndpoint({
  access: adminsOnly('edit legal values'),
  input: z.object({ ...valueProperties, value: text() }),
  run: ({ input, caller }) => updateFieldValue(caller, input.id_or_name, input.value, valueInput(input)),
});
