import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as z from 'zod';
import type { FieldSelection } from '../domain/fieldSelection.ts';
import type { IdentityDirectory } from '../domain/identity/authentication.ts';
import type { Caller } from '../domain/identity/caller.ts';
import { invocationObservers } from '../observability/invocationObservers.ts';
import { inRequestScope } from '../runtime/requestScope.ts';
import { authenticateCaller } from './middleware/authenticateCaller.ts';
import { type Access, authorizeCaller, loggedOutRefusal } from './middleware/authorizeCaller.ts';
import { decodeInput } from './middleware/decodeInput.ts';
import { encodeResponse } from './middleware/encodeResponse.ts';
import { errorEnvelope } from './middleware/errorEnvelope.ts';
import { formatResponse } from './middleware/formatResponse.ts';
import { jsonp } from './middleware/jsonp.ts';
import { parseInput } from './middleware/parseInput.ts';
import { prefetchReads } from './middleware/prefetchReads.ts';
import { queryLimit } from './middleware/queryLimit.ts';
import { refuseAnonymousWrite } from './middleware/refuseAnonymousWrite.ts';
import { requestTelemetry } from './middleware/requestTelemetry.ts';
import { type ResponseFields, selectFields } from './middleware/selectFields.ts';
import { type InvalidInput, validateInput } from './middleware/validateInput.ts';
import { type HttpResult, stateOf, type TrackerContext, type TrackerRequest } from './requestState.ts';

export type { Access } from './middleware/authorizeCaller.ts';

/** What a handler's `run` receives: validated input, the caller, and the requested fields. */
export interface EndpointContext<Input> {
  input: Input;
  caller: Caller;
  fields: FieldSelection;
  requestId: string;
  event: APIGatewayProxyEventV2;
}

export interface EndpointDefinition<Schema extends z.ZodType> {
  /** Who may call it; finer permission rules belong to domain code. */
  access: Access;
  /** Public even when the installation requires a login (`requirelogin`): version, login, ... */
  loginExempt?: boolean;
  /** `skip` leaves credentials in the input, for login, logout and valid_login. */
  authentication?: 'resolve' | 'skip';
  /**
   * The body is never read (the not-found route): whatever a client sent to a path that does
   * not exist, the answer is that the path does not exist, not that its body is not JSON.
   */
  ignoresBody?: boolean;
  input: Schema;
  /**
   * Parameters that may exceed the generic 65,535-character text limit (shared/domain/inputLimits.ts),
   * e.g. an attachment's base64 `data`; the endpoint then bounds them itself.
   */
  longText?: readonly string[];
  /** The spec's error for invalid input, where it names one; otherwise 32000 naming the parameter. */
  invalidInput?: InvalidInput;
  /**
   * Reads `run` will need, started from the raw parameters before authentication, so that they
   * share its round trips (the store batches reads asked for together and remembers them for the
   * request). Nothing prefetched reaches the response unless `run` reads it under the caller's
   * rights; a failed prefetch is ignored (`run` meets the same failure and answers it).
   */
  prefetch?: (params: Record<string, unknown>) => Promise<unknown>;
  /** Resource collections of the response that include_fields / exclude_fields apply to. */
  responseFields?: ResponseFields;
  run(context: EndpointContext<z.infer<Schema>>): Promise<unknown> | unknown;
}

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

/** What the chain reads besides the request; tests may substitute in-memory versions. */
export interface EndpointDependencies {
  directory: () => IdentityDirectory;
  installationRequiresLogin: () => Promise<boolean>;
}

/**
 * Builds a Lambda handler from an endpoint definition, wrapped in the shared middleware chain.
 * Order matters: `before` runs top to bottom, `after` and `onError` bottom to top, so errors are
 * enveloped, then formatted, then fitted to the Lambda boundary (encodeResponse: gzip, 6 MB),
 * then logged and counted with their final status (requestTelemetry),
 * and Powertools' middlewares (invocationObservers) wrap it all: their context is on every line
 * and the metrics are published last. Input is bounded (queryLimit, decodeInput) before it is
 * parsed, and an anonymous write refused before its body is parsed (refuseAnonymousWrite).
 *
 * This is the chain itself, with what it reads supplied by the caller: endpoint.ts wires the DynamoDB
 * stores statically, storelessEndpoint.ts lazily. This module imports no store, so a bundle gets
 * the SDK only through one of those two.
 */
export function buildEndpoint<Schema extends z.ZodType>(
  definition: EndpointDefinition<Schema>,
  dependencies: EndpointDependencies,
): LambdaHandler {
  const { directory, installationRequiresLogin: requiresLogin } = dependencies;
  const run = async (event: APIGatewayProxyEventV2, context: TrackerContext) => {
    const state = stateOf({ event, context } as TrackerRequest);
    return definition.run({
      input: state.input as z.infer<Schema>,
      caller: state.caller,
      fields: state.fields,
      requestId: context.awsRequestId ?? event.requestContext?.requestId,
      event,
    });
  };
  const chain = middy(run)
    .use(invocationObservers())
    .use(requestTelemetry())
    .use(encodeResponse())
    .use(formatResponse())
    .use(errorEnvelope())
    .use(queryLimit())
    .use(decodeInput({ ignoreBody: definition.ignoresBody === true }))
    .use(
      refuseAnonymousWrite(
        definition.access !== 'public' && definition.authentication !== 'skip',
        loggedOutRefusal(definition.access),
      ),
    )
    .use(parseInput({ longText: definition.longText }))
    .use(jsonp())
    .use(selectFields(definition.responseFields))
    .use(prefetchReads(definition.prefetch))
    .use(authenticateCaller(directory, definition.authentication))
    .use(
      authorizeCaller(definition.access, {
        loginExempt: definition.loginExempt,
        installationRequiresLogin: requiresLogin,
      }),
    )
    .use(validateInput(definition.input, definition.invalidInput)) as unknown as LambdaHandler;
  // Each invocation gets its own read memo (parameters, groups): one snapshot per request.
  const handler: LambdaHandler = (event, context) => inRequestScope(() => chain(event, context));
  // Kept on the handler so local/openapi/ can describe the route's input and access from it.
  return Object.assign(handler, { definition });
}
