import * as z from 'zod';
import { cancelToken } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Cancels what a mailed token asks for (Bugzilla's token.cgi cancel_new_account, cxlpw, cxlem).
 * Cancelling an e-mail change from the old address after it was confirmed puts the old login back.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ mail_token: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => cancelToken(input.mail_token),
});
