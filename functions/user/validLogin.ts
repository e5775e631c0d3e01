import * as z from 'zod';
import { isValidLogin } from '../../shared/application/identity/sessions.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { lowerCaseHeaders } from '../../shared/http/requestState.ts';
import { TrackerError } from '../../shared/trackerError.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.looseObject({ login: text().pipe(z.string().min(1)) }),
  invalidInput: () => new TrackerError(50, "The function requires a 'login' argument, and that argument was not set."),
  // Bugzilla wraps a scalar result: {"result": true|false}.
  run: async ({ input, event }) => ({ result: await isValidLogin(input.login, lowerCaseHeaders(event), input) }),
});
