import * as z from 'zod';
import { requestPasswordReset } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { sourceIp } from '../../shared/http/requestState.ts';

/**
 * "Forgot my password" (Bugzilla's token.cgi a=reqpw): mails a single-use link that sets a new
 * password, if the login names an enabled account. The answer never says whether it does.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ email: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input, event }) => requestPasswordReset(input.email, { sourceIp: sourceIp(event) }),
});
