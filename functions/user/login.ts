import * as z from 'zod';
import { logIn } from '../../shared/application/identity/sessions.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { TrackerError } from '../../shared/trackerError.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({ login: text().pipe(z.string().min(1)), password: text() }),
  invalidInput: (_issue, parameter) =>
    new TrackerError(50, `The function requires a '${parameter}' argument, and that argument was not set.`),
  run: ({ input }) => logIn(input.login, input.password),
});
