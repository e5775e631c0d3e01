import * as z from 'zod';
import { createAccountFromToken } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Creates the account a sign-up mail's token names (Bugzilla's token.cgi, request_new_account
 * then confirm_new_account), with the password and real name the person chose. The token is
 * spent in the same write: it works once.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ mail_token: text(), password: text(), full_name: text().optional() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => createAccountFromToken(input.mail_token, input),
});
