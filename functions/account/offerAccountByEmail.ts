import * as z from 'zod';
import { offerAccountByEmail } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { sourceIp } from '../../shared/http/requestState.ts';

/**
 * User.offer_account_by_email (5.2 has it over XML-RPC and JSON-RPC only; this is its REST form, a
 * Tracker extension): mails a sign-up link to an address that createemailregexp allows. The
 * answer is the same whether or not the address has an account.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ email: text() }),
  invalidInput: (issue, parameter) =>
    parameter === 'email' && issue.code === 'invalid_type' && issue.input === undefined
      ? errors.missingParameter('The function requires a email argument, and that argument was not set.')
      : undefined,
  run: ({ input, event }) => offerAccountByEmail(input.email, { sourceIp: sourceIp(event) }),
});
