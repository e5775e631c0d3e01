import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { LambdaHandler } from '../endpointChain.ts';
import { restCallFor } from './restCall.ts';
import { restContextFor, restEventFor } from './restEvent.ts';
import { type RpcCall, RpcFault } from './rpcCall.ts';
import { internalFault, rpcFaults } from './rpcFaults.ts';
import { rpcMethod } from './rpcMethods.ts';

/**
 * Runs an RPC call as the REST request it is (restCall.ts): the route's own handler module, its
 * whole middleware chain (limits, authentication, validation, field selection, its request log
 * line and metrics under the REST route), in this process. Its JSON answer is the call's result;
 * its error envelope `{error, code, message}` the call's fault, with the same code and message.
 */

/** The handler of a module under functions/ (`bug/getBug`): functions/rpc/ lists them for the bundler. */
export type RestHandlers = (module: string) => Promise<LambdaHandler> | LambdaHandler;

export interface RpcAnswer {
  result: unknown;
  /** The REST answer was the caller's alone (Cache-Control: private): a logged-in caller, or a login. */
  personal: boolean;
}

interface RestEnvelope {
  error?: unknown;
  code?: unknown;
  message?: unknown;
}

export async function dispatchRpcCall(
  call: RpcCall,
  handlers: RestHandlers,
  request: { event: APIGatewayProxyEventV2; context: Context },
): Promise<RpcAnswer> {
  const method = rpcMethod(call.method);
  if (!method) throw rpcFaults.unknownMethod(call.method);
  const restCall = restCallFor(call.method, method, call.params);
  if ('answer' in restCall) return { result: restCall.answer, personal: false };
  const handler = await handlers(restCall.route.handler);
  const response = await handler(restEventFor(restCall, request.event), restContextFor(request.context));
  const requestId = request.context.awsRequestId ?? request.event.requestContext?.requestId;
  let answer: unknown;
  try {
    answer = response.body ? JSON.parse(response.body) : null;
  } catch {
    throw internalFault(requestId);
  }
  const status = response.statusCode ?? 200;
  if (status >= 200 && status < 300) {
    const personal = /\bprivate\b/i.test(String(response.headers?.['Cache-Control'] ?? ''));
    return { result: method.result ? method.result(answer) : answer, personal };
  }
  const envelope = (answer ?? {}) as RestEnvelope;
  if (envelope.error === true && typeof envelope.code === 'number')
    throw new RpcFault(envelope.code, String(envelope.message ?? ''));
  throw internalFault(requestId);
}
