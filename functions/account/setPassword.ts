import * as z from 'zod';
import { setPasswordFromToken } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Sets a password with a mailed token (Bugzilla's token.cgi a=cfmpw then chgpw; also the link of
 * an invitation after an import). Every login token of the account ends; the mailed token is spent.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ mail_token: text(), password: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => setPasswordFromToken(input.mail_token, input.password),
});
