import type { MiddlewareObj } from '@middy/core';
import { dynamodbCallsOfRequest } from '../../observability/dynamodbCalls.ts';
import { logger } from '../../observability/logger.ts';
import { recordRequest } from '../../observability/metrics.ts';
import { routineOutputOff } from '../../observability/routineOutput.ts';
import { type HttpResult, stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * One log line and the request's metrics (shared/observability/), once the answer is final: the
 * chain has enveloped and formatted any error by then. The line names the route, never the raw
 * query or headers, so no credential (API key, token, password) can reach the log.
 */
function recordAnswer(request: TrackerRequest, failed: boolean): void {
  if (routineOutputOff()) return;
  const state = stateOf(request);
  const response = request.response as HttpResult | undefined;
  // No answer after an error: the error escapes the function, and API Gateway answers 500.
  const status = response?.statusCode ?? (failed ? 500 : state.statusCode);
  const outcome = {
    route: request.event.routeKey,
    status,
    errorCode: status >= 400 ? state.errorCode : undefined,
    durationMs: Date.now() - state.startedAt,
    dynamodbCalls: dynamodbCallsOfRequest(),
  };
  recordRequest(outcome);
  logger.info('request', {
    requestId: request.context.awsRequestId ?? request.event.requestContext?.requestId,
    method: request.event.requestContext?.http?.method,
    callerId: state.caller.user?.id ?? null,
    ...outcome,
  });
}

export const requestTelemetry = (): MiddlewareObj => ({
  before: (request) => {
    stateOf(request as TrackerRequest).startedAt = Date.now();
  },
  after: (request) => recordAnswer(request as TrackerRequest, false),
  onError: (request) => recordAnswer(request as TrackerRequest, true),
});
