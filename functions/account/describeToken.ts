import * as z from 'zod';
import { describeToken } from '../../shared/application/identity/accountsByMail.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * What a mailed token is for and for which address, so the page its link opens can say so
 * before anything is changed. A POST, so the token stays out of addresses and access logs.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  input: z.object({ mail_token: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => describeToken(input.mail_token),
});
