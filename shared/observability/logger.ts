import { Logger } from '@aws-lambda-powertools/logger';

/** The `service` of every log line and metric, unless POWERTOOLS_SERVICE_NAME names another. */
export const SERVICE_NAME = 'tracker';

export const serviceName = (): string => process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME;

/**
 * The one logger of Tracker's code (Powertools): one JSON line per entry with its level, time and
 * service, on stdout (warnings and errors on stderr), where Lambda hands it to CloudWatch Logs.
 * Within a request the chain adds the invocation's context to every line (injectLambdaContext in
 * endpointChain.ts: function, request id, cold start) and the X-Ray trace id when there is one.
 * The level comes from POWERTOOLS_LOG_LEVEL (or Lambda's own log level setting), INFO by default.
 */
export const logger = new Logger({ serviceName: serviceName() });
