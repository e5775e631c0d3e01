import * as z from 'zod';
import { finishSignIn } from '../../shared/application/identity/singleSignOn.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Finishes a single sign-on (Tracker addition): the issuer's callback parameters and what the
 * browser kept since the start give a login token, as POST /rest/login does.
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({
    state: text(),
    code: text(),
    iss: text().optional(),
    code_verifier: text(),
    nonce: text(),
  }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => finishSignIn(input),
});
