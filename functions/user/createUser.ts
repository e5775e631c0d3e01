import * as z from 'zod';
import { createUser } from '../../shared/application/identity/users.ts';
import { EDITUSERS_GROUP } from '../../shared/domain/identity/userView.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { TrackerError } from '../../shared/trackerError.ts';

export const handler = defineEndpoint({
  access: {
    group: EDITUSERS_GROUP,
    denied: () =>
      new TrackerError(304, 'Sorry, you are not authorized to create users: only members of the editusers group may.'),
  },
  input: z.object({ email: text(), full_name: text().optional(), password: text().optional() }),
  invalidInput: (issue, parameter) =>
    parameter === 'email' && issue.code === 'invalid_type' && issue.input === undefined
      ? new TrackerError(50, "The function requires an 'email' argument, and that argument was not set.")
      : undefined,
  run: ({ input, caller }) => createUser(caller, input),
});
