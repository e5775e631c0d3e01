/**
 * Time limits for every call to DynamoDB and S3. Without them the SDK waits as long as the
 * service does: a stalled call held the request until the function's own timeout (measured:
 * 20.1 s with DynamoDB frozen for 20 s), and Lambda then killed the function without an answer.
 * With them a stalled call fails, is retried on a fresh connection, and after the last attempt
 * the request gets Tracker's 500 envelope with its request id while the function is still alive.
 *
 * The budget of one call, attempts × request timeout plus the retry backoff, stays under the
 * function timeout (lib/trackerFunction.ts FUNCTION_TIMEOUT, 10 s) with time left to answer;
 * test/unit/sdkTimeouts.test.ts holds the two together.
 */

/** Environment variables that override the defaults (tests use small values to provoke timeouts quickly). */
export const SDK_TIMEOUT_ENV = {
  connectionTimeoutMs: 'TRACKER_SDK_CONNECTION_TIMEOUT_MS',
  requestTimeoutMs: 'TRACKER_SDK_REQUEST_TIMEOUT_MS',
} as const;

/** TCP and TLS set-up; in-region endpoints take a few milliseconds, so a second means a dead host. */
export const DEFAULT_CONNECTION_TIMEOUT_MS = 1_000;
/**
 * One attempt, from sending the request to the response headers (an item read or write takes
 * milliseconds; a 10 MB attachment body uploads to S3 well inside it), and at most this long
 * silent while the body is read.
 */
export const DEFAULT_REQUEST_TIMEOUT_MS = 2_000;
/** The first try and two retries: a timeout, a 5xx or throttling is retried on a fresh attempt. */
export const SDK_MAX_ATTEMPTS = 3;
/**
 * The longest the SDK's standard retry strategy waits between attempts: a random share of
 * 1 s × 2^retry after throttling (less after other errors), so at most 1 s + 2 s for 3 attempts.
 */
export const MAX_RETRY_BACKOFF_MS = 1_000 * (2 ** (SDK_MAX_ATTEMPTS - 1) - 1);

function fromEnvironment(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

/**
 * The client options that apply the budget, read when a client is created. `requestHandler`
 * given as options makes the SDK build its usual NodeHttpHandler with them (no import of
 * @smithy/node-http-handler of our own); `throwOnRequestTimeout` turns the request timeout,
 * otherwise only a logged warning, into an error the retry strategy and the caller see.
 */
export function sdkTimeouts() {
  const requestTimeout = fromEnvironment(SDK_TIMEOUT_ENV.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
  return {
    maxAttempts: SDK_MAX_ATTEMPTS,
    requestHandler: {
      connectionTimeout: fromEnvironment(SDK_TIMEOUT_ENV.connectionTimeoutMs, DEFAULT_CONNECTION_TIMEOUT_MS),
      requestTimeout,
      throwOnRequestTimeout: true,
      // A response whose body stops arriving is cut off too (the request timeout ends at the headers).
      socketTimeout: requestTimeout,
    },
  };
}
