import { noInput } from '../../shared/http/inputSchemas.ts';
import { defineStorelessEndpoint } from '../../shared/http/storelessEndpoint.ts';
import { NO_SUCH_METHOD, TrackerError } from '../../shared/trackerError.ts';

/** API Gateway's $default route: no route of the table matches this method and path. */
export const handler = defineStorelessEndpoint({
  access: 'public',
  loginExempt: true,
  authentication: 'skip',
  input: noInput(),
  run: ({ event }) => {
    const method = event.requestContext?.http?.method ?? 'GET';
    throw new TrackerError(NO_SUCH_METHOD, `A REST API resource was not found for '${method} ${event.rawPath}'.`);
  },
});
