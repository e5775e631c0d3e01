import * as z from 'zod';
import { isValidLogin } from '../../shared/application/identity/sessions.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { lowerCaseHeaders, sourceIp } from '../../shared/http/requestState.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.looseObject({ login: text().pipe(z.string().min(1)) }),
  invalidInput: () => errors.argumentNotSet('login'),
  // Bugzilla wraps a scalar result: {"result": true|false}.
  run: async ({ input, event }) => ({
    result: await isValidLogin(input.login, lowerCaseHeaders(event), input, sourceIp(event)),
  }),
});
