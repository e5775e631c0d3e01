import type { MiddlewareObj } from '@middy/core';
import { type HttpResult, stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * One structured line per request. It names the route, never the raw query or headers, so no
 * credential (API key, token, password) can reach the log.
 */
function logLine(request: TrackerRequest): void {
  if (process.env.TRACKER_REQUEST_LOG === 'off') return;
  const state = stateOf(request);
  const response = request.response as HttpResult | undefined;
  console.log(
    JSON.stringify({
      level: 'info',
      requestId: request.context.awsRequestId ?? request.event.requestContext?.requestId,
      route: request.event.routeKey,
      method: request.event.requestContext?.http?.method,
      callerId: state.caller.user?.id ?? null,
      status: response?.statusCode ?? state.statusCode,
      errorCode: state.errorCode,
      durationMs: Date.now() - state.startedAt,
    }),
  );
}

export const requestLog = (): MiddlewareObj => ({
  before: (request) => {
    stateOf(request as TrackerRequest).startedAt = Date.now();
  },
  after: (request) => logLine(request as TrackerRequest),
  onError: (request) => logLine(request as TrackerRequest),
});
