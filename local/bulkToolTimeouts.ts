import { SDK_TIMEOUT_ENV } from '../shared/storage/sdkTimeouts.ts';

/**
 * The storage modules' call budget (shared/storage/sdkTimeouts.ts) fits a 10-second Lambda
 * function: a 2-second attempt. Tools that write in bulk to a local engine on disk (seed, import,
 * the benchmarks' source API) queue a dozen batch writes behind DynamoDB Local's SQLite commits,
 * each waiting for the disk, and a batch can wait longer than that without anything being wrong
 * (measured: a 100,000-bug seed to disk failed on its third 2-second attempt). They get a longer
 * attempt unless the environment sets one; the deployed functions keep theirs.
 */
export const BULK_TOOL_REQUEST_TIMEOUT_MS = 60_000;

export function relaxSdkTimeoutsForBulkTool(): void {
  process.env[SDK_TIMEOUT_ENV.requestTimeoutMs] ??= String(BULK_TOOL_REQUEST_TIMEOUT_MS);
  process.env[SDK_TIMEOUT_ENV.connectionTimeoutMs] ??= '10000';
}
