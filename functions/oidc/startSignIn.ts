import * as z from 'zod';
import { startSignIn } from '../../shared/application/identity/singleSignOn.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';

/**
 * Starts a single sign-on (Tracker addition): the issuer's address to send the browser to, for
 * the S256 `code_challenge` of a code verifier the browser keeps (docs/web-security.md).
 */
export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({ code_challenge: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input }) => startSignIn(input.code_challenge),
});
