import * as z from 'zod';
import { confirmEmailChange } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Confirms a change of e-mail address from the link mailed to the new address (Bugzilla's
 * token.cgi a=cfmem): the login becomes the new address. The old address keeps its cancel link.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ mail_token: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => confirmEmailChange(input.mail_token),
});
