import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import type { MiddlewareObj } from '@middy/core';
import { serviceName } from './logger.ts';

/**
 * Powertools' Tracer, loaded only when tracing is on (tracing.ts). It traces every http call of the
 * process (DynamoDB and S3 included) as subsegments of the invocation. Only on Lambda with active
 * tracing does it send anything; POWERTOOLS_TRACE_ENABLED=false turns it off there too.
 */
export const tracer = new Tracer({ serviceName: serviceName() });

// A response can be a page of 1,000 bugs, and private: it is never copied into a trace.
export const tracerMiddleware = (): MiddlewareObj => captureLambdaHandler(tracer, { captureResponse: false });
