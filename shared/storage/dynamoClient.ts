import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENV } from './tableSchema.ts';

/**
 * One client per Lambda container, created on first use. Locally, TRACKER_DYNAMODB_ENDPOINT
 * points it at DynamoDB Local; on AWS the default credential chain and region apply.
 */
let client: DynamoDBDocumentClient | undefined;

/**
 * The SDK's logger middleware builds a redacted copy of every response for `logger.info` before
 * calling it, even when the logger discards it (its default no-op logger has an `info`). For a
 * search page of 1,000 bugs that copy was the largest CPU cost of the request. Tracker logs its
 * own request lines, so the client gets a logger without `info` (the middleware calls it as
 * `logger?.info?.(...)` and then builds nothing); warnings and errors still go nowhere, as before.
 */
const QUIET_LOGGER = { trace() {}, debug() {}, warn() {}, error() {} } as unknown as import('@smithy/types').Logger;

export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const endpoint = process.env[ENV.dynamodbEndpoint];
    const base = new DynamoDBClient(
      endpoint
        ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, logger: QUIET_LOGGER }
        : { logger: QUIET_LOGGER },
    );
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/** Read at call time, so a test file can point the same process at its own fresh table. */
export function tableName(): string {
  const name = process.env[ENV.table];
  if (!name) throw new Error(`${ENV.table} is not set`);
  return name;
}
