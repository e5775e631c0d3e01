import type { Request } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { FieldSelection } from '../domain/fieldSelection.ts';
import { ANONYMOUS, type Caller } from '../domain/identity/caller.ts';

/** What the middleware chain learns about one request, shared along the chain. */
export interface RequestState {
  startedAt: number;
  /** The JSON body as text, checked by decodeInput but not parsed yet, and its top-level member names. */
  body?: { text: string; memberNames: readonly string[] };
  /** Path parameters, query string and JSON body merged (query over body, path over both). */
  params: Record<string, unknown>;
  caller: Caller;
  /** `params` after the endpoint's zod schema. */
  input: unknown;
  fields: FieldSelection;
  jsonpCallback?: string;
  statusCode: number;
  errorCode?: number;
  /** Set on a 503: how long the client should wait before trying again (the Retry-After header). */
  retryAfterSeconds?: number;
}

export type TrackerContext = Context & {
  tracker?: RequestState;
  /** A REST route the RPC layer calls within its own invocation (rpc/restEvent.ts): its answer never crosses the Lambda boundary. */
  inProcessCall?: boolean;
};

export type TrackerRequest = Request<APIGatewayProxyEventV2, unknown, Error, TrackerContext>;

export type HttpResult = APIGatewayProxyStructuredResultV2;

export function stateOf(request: TrackerRequest): RequestState {
  request.context.tracker ??= {
    startedAt: Date.now(),
    params: {},
    caller: ANONYMOUS,
    input: {},
    fields: new FieldSelection(),
    statusCode: 200,
  };
  return request.context.tracker;
}

/** API Gateway lower-cases header names in v2 events; local callers may not. */
export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

/**
 * The client address API Gateway saw on the connection. Headers such as X-Forwarded-For are
 * written by the client and are never read for this.
 */
export function sourceIp(event: APIGatewayProxyEventV2): string | undefined {
  return event.requestContext?.http?.sourceIp;
}

export function lowerCaseHeaders(event: APIGatewayProxyEventV2): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(event.headers ?? {}).map(([key, value]) => [key.toLowerCase(), value]));
}
