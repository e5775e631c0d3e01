import * as z from 'zod';
import { userActivity } from '../../shared/application/identity/userActivity.ts';
import { EDITUSERS_GROUP } from '../../shared/domain/identity/userView.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { integer, text } from '../../shared/http/inputSchemas.ts';

/**
 * Tracker addition: `GET /rest/user/{id_or_name}/activity`, the account's history (Bugzilla's
 * editusers "View Account History"), newest first, paged with `limit` and `offset`.
 */
export const handler = defineEndpoint({
  access: {
    group: EDITUSERS_GROUP,
    denied: () => errors.onlyGroupMembersMay('view account history', EDITUSERS_GROUP),
  },
  input: z.object({ id_or_name: text(), limit: integer().optional(), offset: integer().optional() }),
  responseFields: { activity: { fields: { nested: { changes: {} } } } },
  run: ({ input, caller }) => userActivity(caller, input.id_or_name, input),
});
