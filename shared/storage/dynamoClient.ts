import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { forgetRequestReads } from './requestScope.ts';
import { ENV } from './tableSchema.ts';

/**
 * Clients per Lambda container, created on first use. Locally, TRACKER_DYNAMODB_ENDPOINT
 * points them at DynamoDB Local; on AWS the default credential chain and region apply.
 */
let client: DynamoDBDocumentClient | undefined;
let readClient: DynamoDBClient | undefined;

/**
 * The SDK's logger middleware builds a redacted copy of every response for `logger.info` before
 * calling it, even when the logger discards it (its default no-op logger has an `info`). For a
 * search page of 1,000 bugs that copy was the largest CPU cost of the request. Tracker logs its
 * own request lines, so the client gets a logger without `info` (the middleware calls it as
 * `logger?.info?.(...)` and then builds nothing); warnings and errors still go nowhere, as before.
 */
const QUIET_LOGGER = { trace() {}, debug() {}, warn() {}, error() {} } as unknown as import('@smithy/types').Logger;

function clientConfig(): DynamoDBClientConfig {
  const endpoint = process.env[ENV.dynamodbEndpoint];
  return endpoint
    ? { endpoint, region: process.env.AWS_REGION ?? 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, logger: QUIET_LOGGER }
    : { logger: QUIET_LOGGER };
}

const READ_COMMANDS: ReadonlySet<string> = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand']);

/** The document client, for writes and occasional reads. */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient(clientConfig());
    // Whatever this request read and memoised (requestScope.ts) may be stale after any write, even
    // a failed conditional one: the next read goes to the table. Transactions forget on commit too.
    base.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } finally {
          if (!READ_COMMANDS.has(String(context.commandName))) forgetRequestReads();
        }
      },
      { step: 'initialize', name: 'forgetRequestReadsAfterWrite' },
    );
    client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
  }
  return client;
}

/**
 * The low-level client for the hot reads (itemReads.ts, tableReads.ts), with the SDK's
 * `cacheMiddleware`: the middleware stack is resolved once per command type instead of on every
 * call, about a quarter of the SDK's CPU per call measured here. The document client cannot
 * use it (its commands bind the first command instance into the cached handler), so these reads
 * marshal their own values with @aws-sdk/util-dynamodb, as the document client does.
 */
export function lowLevelReadClient(): DynamoDBClient {
  readClient ??= new DynamoDBClient({ ...clientConfig(), cacheMiddleware: true });
  return readClient;
}

/** Read at call time, so a test file can point the same process at its own fresh table. */
export function tableName(): string {
  const name = process.env[ENV.table];
  if (!name) throw new Error(`${ENV.table} is not set`);
  return name;
}
