import { errors } from '../../shared/errors.ts';
import { noInput } from '../../shared/http/inputSchemas.ts';
import { defineStorelessEndpoint } from '../../shared/http/storelessEndpoint.ts';

/** API Gateway's $default route: no route of the table matches this method and path. */
export const handler = defineStorelessEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  ignoresBody: true,
  input: noInput(),
  run: ({ event }) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    throw errors.noSuchMethod(`A REST API resource was not found for '${method} ${event.rawPath}'.`);
  },
});
