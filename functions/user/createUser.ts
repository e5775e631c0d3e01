import * as z from 'zod';
import { createUser } from '../../shared/application/identity/users.ts';
import { EDITUSERS_GROUP } from '../../shared/domain/identity/userView.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

export const handler = defineEndpoint({
  // Bugzilla 5.2 checks the group alone: a logged-out caller is refused as a non-member is (304).
  access: {
    group: EDITUSERS_GROUP,
    denied: () =>
      errors.authorizationRequired(
        `Sorry, you aren't a member of the '${EDITUSERS_GROUP}' group, and so you are not authorized to add new users.`,
      ),
    deniedLoggedOut: true,
  },
  input: z.object({ email: text(), full_name: text().optional(), password: text().optional() }),
  invalidInput: (issue, parameter) =>
    parameter === 'email' && issue.code === 'invalid_type' && issue.input === undefined
      ? errors.missingParameter('The function requires a email argument, and that argument was not set.')
      : undefined,
  run: ({ input, caller }) => createUser(caller, input),
});
