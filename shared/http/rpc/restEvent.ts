import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type { TrackerContext } from '../requestState.ts';
import { header } from '../requestState.ts';
import type { RestCall } from './restCall.ts';

/**
 * The API Gateway (HTTP API, payload 2.0) event the REST route would get for the call, as
 * local/apiGatewayEmulator.ts and API Gateway build it, inside the RPC request's own: the same
 * request id, client address and time, so the route logs under the RPC request's id and counts
 * password failures against the right address.
 *
 * Of the RPC request's headers only the user agent is carried over. Bugzilla's RPC servers read
 * credentials from the call's parameters alone, never from headers or cookies, and an `Accept`,
 * `If-None-Match` or `Content-Length` of the RPC request means nothing to the REST request.
 */
export function restEventFor(call: RestCall, outer: APIGatewayProxyEventV2): APIGatewayProxyEventV2 {
  const routeKey = `${call.route.method} ${call.route.path}`;
  const headers: Record<string, string> = {};
  const userAgent = header(outer, 'user-agent');
  if (userAgent !== undefined) headers['user-agent'] = userAgent;
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const query = new URLSearchParams(call.rawQueryString);
  const queryStringParameters: Record<string, string> = {};
  // API Gateway joins repeated keys with commas here; handlers read rawQueryString.
  for (const [key, value] of query)
    queryStringParameters[key] = key in queryStringParameters ? `${queryStringParameters[key]},${value}` : value;
  const context = outer.requestContext;
  return {
    version: '2.0',
    routeKey,
    rawPath: call.rawPath,
    rawQueryString: call.rawQueryString,
    headers,
    queryStringParameters: Object.keys(queryStringParameters).length > 0 ? queryStringParameters : undefined,
    pathParameters: Object.keys(call.pathParameters).length > 0 ? { ...call.pathParameters } : undefined,
    body: call.body,
    isBase64Encoded: false,
    requestContext: {
      ...context,
      http: { ...context?.http, method: call.route.method, path: call.rawPath },
      routeKey,
    },
  };
}

/**
 * The Lambda context for the REST handler: the RPC request's (its request id, remaining time),
 * without the RPC chain's own state, which a handler keeps on its context (requestState.ts), and
 * marked as called in-process: the RPC answer, not the route's, is what Lambda returns.
 */
export function restContextFor(context: Context): Context {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(context)), context) as TrackerContext;
  delete copy.tracker;
  copy.inProcessCall = true;
  return copy;
}
