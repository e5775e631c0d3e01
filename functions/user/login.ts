import * as z from 'zod';
import { logIn } from '../../shared/application/identity/sessions.ts';
import { errors } from '../../shared/errors.ts';
import { defineEndpoint } from '../../shared/http/endpoint.ts';
import { text } from '../../shared/http/inputSchemas.ts';
import { sourceIp } from '../../shared/http/requestState.ts';

export const handler = defineEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: z.object({ login: text().pipe(z.string().min(1)), password: text() }),
  invalidInput: (_issue, parameter) => errors.argumentNotSet(parameter),
  run: ({ input, event }) => logIn(input.login, input.password, sourceIp(event)),
});
