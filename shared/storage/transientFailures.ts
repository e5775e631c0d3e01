/**
 * Failures of DynamoDB or S3 that say "not now" rather than "never": throttling, a timeout, a
 * service's own 5xx, a dropped connection. The SDK has already retried them (sdkTimeouts.ts), so
 * the request fails, but as 503 with Retry-After, which clients and load balancers retry,
 * rather than as a 500 that says Tracker is broken. Only this module knows the SDK's error names.
 */

/** Failures where the store turned the call away before doing anything: a write failing so changed nothing. */
const REFUSED_NAMES = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TooManyRequestsException',
  'SlowDown',
]);
const TRANSIENT_NAMES = new Set([
  ...REFUSED_NAMES,
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalError',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionInProgressException',
]);
const TRANSIENT_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

interface SdkFailure {
  name?: unknown;
  code?: unknown;
  $metadata?: { httpStatusCode?: number };
  $retryable?: unknown;
}

export function isTransientStorageFailure(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const failure = error as SdkFailure;
  if (typeof failure.name === 'string' && TRANSIENT_NAMES.has(failure.name)) return true;
  if (typeof failure.code === 'string' && TRANSIENT_SOCKET_CODES.has(failure.code)) return true;
  if (failure.$retryable) return true;
  const status = failure.$metadata?.httpStatusCode;
  return typeof status === 'number' && status >= 500;
}

/**
 * Whether a transient failure leaves a write's outcome unknown: a timeout, a dropped connection or
 * a service error may come after the store applied the call (a transaction that committed while
 * its answer was late). Only a refusal (throttling) or a connection never made says it did not.
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!isTransientStorageFailure(error)) return false;
  const failure = error as SdkFailure;
  if (typeof failure.name === 'string' && REFUSED_NAMES.has(failure.name)) return false;
  return failure.code !== 'ECONNREFUSED';
}

/** Seconds a client is told to wait: long enough for throttling to ease, short for a person. */
export const RETRY_AFTER_SECONDS = 2;
