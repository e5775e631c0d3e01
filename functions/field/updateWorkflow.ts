import * as z from 'zod';
import { updateWorkflow } from '../../shared/application/catalog/fieldValues.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { flag, list, text } from '../../shared/http/inputSchemas.ts';
import { adminsOnly } from './fieldValueEndpoints.ts';

/** A move: `from` null, absent or empty is a bug being filed (Bugzilla's "{Start}"). */
const transition = z.object({
  from: z.string().nullable().optional(),
  to: z.string(),
  comment_required: flag().optional(),
});
const transitions = () => list(transition, { splitCommas: false });

/**
 * `PUT /rest/field/bug/bug_status/workflow` (Tracker's addition, Bugzilla's editworkflow.cgi):
 * `{"transitions": [{from, to, comment_required}]}` replaces the workflow; `add` and `remove`
 * change moves. Answers `{transitions, changes: {added, removed}}`.
 */
export const handler = defineEndpoint({
  access: adminsOnly('edit the workflow'),
  input: z.object({ id_or_name: text(), transitions: transitions(), add: transitions(), remove: transitions() }),
  run: ({ input, caller }) =>
    updateWorkflow(caller, input.id_or_name, { transitions: input.transitions, add: input.add, remove: input.remove }),
});
