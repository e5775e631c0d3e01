import * as z from 'zod';
import { addFieldValue } from '../../shared/application/catalog/fieldValues.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { adminsOnly, valueInput, valueProperties } from './fieldValueEndpoints.ts';

/**
 * `POST /rest/field/bug/{id_or_name}/values` (Tracker's addition, Bugzilla's editvalues.cgi):
 * adds a legal value to priority, bug_severity, rep_platform, op_sys, resolution, bug_type or
 * bug_status (with `is_open`). Answers `{field, name}`.
 */
export const handler = defineEndpoint({
  access: adminsOnly('add legal values'),
  input: z.object(valueProperties),
  run: ({ input, caller }) => addFieldValue(caller, input.id_or_name, valueInput(input)),
});
