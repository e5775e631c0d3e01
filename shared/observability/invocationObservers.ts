import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import { logger } from './logger.ts';
import { bugzillaErrorMetrics, requestMetrics, serviceMetrics } from './metrics.ts';
import { tracing } from './tracing.ts';

/**
 * Powertools' middlewares around every invocation, outermost first: the trace (when on), the
 * invocation's context on every log line (function, request id, cold start; removed again after
 * it), and the metrics recorded during the invocation published once it is over, with the
 * function's ColdStart metric on its first one.
 */
export const invocationObservers = (): MiddlewareObj[] => [
  ...tracing(),
  injectLambdaContext(logger, { resetKeys: true }),
  logMetrics(requestMetrics, { captureColdStartMetric: true }),
  logMetrics([bugzillaErrorMetrics, serviceMetrics]),
];

/** A scheduled function (EventBridge), observed like a request. */
export function scheduledHandler<Result>(work: () => Promise<Result>) {
  return middy(work).use(invocationObservers());
}
