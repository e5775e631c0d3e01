import middy from '@middy/core';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { IdentityDirectory } from '../domain/authentication.ts';
import type { Caller } from '../domain/caller.ts';
import type { FieldSelection } from '../domain/fieldSelection.ts';
import * as identityStore from '../storage/identityStore.ts';
import { authenticateCaller } from './middleware/authenticateCaller.ts';
import { authorizeCaller, type Access } from './middleware/authorizeCaller.ts';
import { errorEnvelope } from './middleware/errorEnvelope.ts';
import { formatResponse } from './middleware/formatResponse.ts';
import { jsonp } from './middleware/jsonp.ts';
import { parseInput } from './middleware/parseInput.ts';
import { queryLimit } from './middleware/queryLimit.ts';
import { requestLog } from './middleware/requestLog.ts';
import { selectFields, type ResponseFields } from './middleware/selectFields.ts';
import { validateInput, type InvalidInput } from './middleware/validateInput.ts';
import { stateOf, type HttpResult, type TrackerContext, type TrackerRequest } from './requestState.ts';

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
  /** `skip` leaves credentials in the input, for login, logout and valid_login. */
  authentication?: 'resolve' | 'skip';
  input: Schema;
  /** The spec's error for invalid input, where it names one; otherwise 32000 naming the parameter. */
  invalidInput?: InvalidInput;
  /** Resource collections of the response that include_fields / exclude_fields apply to. */
  responseFields?: ResponseFields;
  run(context: EndpointContext<z.infer<Schema>>): Promise<unknown> | unknown;
}

export type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<HttpResult>;

const defaultDirectory = (): IdentityDirectory => identityStore;

/**
 * Builds a Lambda handler from an endpoint definition, wrapped in the shared middleware chain.
 * Order matters: `before` runs top to bottom, `after` and `onError` bottom to top, so errors are
 * enveloped, then formatted, then logged.
 */
export function defineEndpoint<Schema extends z.ZodType>(
  definition: EndpointDefinition<Schema>,
  directory: () => IdentityDirectory = defaultDirectory,
): LambdaHandler {
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
  return middy(run)
    .use(requestLog())
    .use(formatResponse())
    .use(errorEnvelope())
    .use(queryLimit())
    .use(parseInput())
    .use(jsonp())
    .use(selectFields(definition.responseFields))
    .use(authenticateCaller(directory, definition.authentication))
    .use(authorizeCaller(definition.access))
    .use(validateInput(definition.input, definition.invalidInput)) as unknown as LambdaHandler;
}
