import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { forgetRequestReads } from '../runtime/requestScope.ts';
import { decodeBinaryAttributes } from './binaryAttributes.ts';
import { sdkTimeouts } from './sdkTimeouts.ts';
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
 * `logger.info?.(...)` and then builds nothing); warnings and errors still go nowhere, as before.
 * `info` is declared for the Logger type and never assigned, so instances have none.
 */
type Logger = NonNullable<DynamoDBClientConfig['logger']>;

class QuietLogger implements Logger {
  declare readonly info: Logger['info'];
  trace(): void {}
  debug(): void {}
  warn(): void {}
  error(): void {}
}
const QUIET_LOGGER = new QuietLogger();

/**
 * Connection and request timeouts with a retry budget that fits the function's timeout
 * (sdkTimeouts.ts), and DynamoDB Local when TRACKER_DYNAMODB_ENDPOINT names it; the streams
 * client (notification/tableStream.ts) takes the same.
 */
export function dynamoClientConfig(): DynamoDBClientConfig {
  const endpoint = process.env[ENV.dynamodbEndpoint];
  return endpoint
    ? {
        endpoint,
        region: process.env.AWS_REGION ?? 'local',
        credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
        logger: QUIET_LOGGER,
        ...sdkTimeouts(),
      }
    : { logger: QUIET_LOGGER, ...sdkTimeouts() };
}

const READ_COMMANDS: ReadonlySet<string> = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
]);

/**
 * Partitions no request reads back by key: taking the next id (counterStore.ts) changes nothing
 * a request remembered, so it keeps its reads (and the catalogue stamp it checked).
 */
const UNREAD_PARTITIONS: ReadonlySet<string> = new Set(['COUNTER']);
const writesOnlyUnread = (input: unknown) =>
  UNREAD_PARTITIONS.has(String((input as { Key?: { pk?: unknown } })?.Key?.pk));

/** The document client, for writes and occasional reads. */
export function documentClient(): DynamoDBDocumentClient {
  if (!client) {
    const base = new DynamoDBClient(dynamoClientConfig());
    // Whatever this request read and memoised (requestScope.ts) may be stale after any write, even
    // a failed conditional one: the next read goes to the table. Transactions forget on commit too.
    base.middlewareStack.add(
      (next, context) => async (args) => {
        try {
          return await next(args);
        } finally {
          if (!READ_COMMANDS.has(String(context.commandName)) && !writesOnlyUnread(args.input)) forgetRequestReads();
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
  if (!readClient) {
    readClient = new DynamoDBClient({ ...dynamoClientConfig(), cacheMiddleware: true });
    parseReadsAsPlainJson(readClient);
  }
  return readClient;
}

const PARSED = Symbol('parsedBody');
const EMPTY_OBJECT = new TextEncoder().encode('{}');

/**
 * A successful read's body is DynamoDB JSON, which is already the shape of the command's output
 * (`Item`, `Items`, `Responses`, `LastEvaluatedKey`, `UnprocessedKeys`, ...). The SDK walks it
 * value by value against the service's schema, which measured here as most of the CPU a read of
 * a hundred bug items costs; JSON.parse does the same job. So successful reads are parsed here
 * and the SDK's deserializer is handed an empty object; errors (and throttling, and the retries
 * that follow) go through the SDK untouched. Binary attributes are the one difference: the wire
 * has base64 text where the SDK gives bytes, so a body that holds any has them decoded here
 * (binaryAttributes.ts). A search instance's cold start reads 55 MB of snapshot that way at a
 * million bugs, where the SDK also matched every base64 text against a regular expression.
 */
function parseReadsAsPlainJson(target: DynamoDBClient): void {
  target.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const response = result.response as { statusCode?: number; body?: unknown; [PARSED]?: unknown };
      if (response?.statusCode !== 200 || !response.body) return result;
      const bytes = await bodyBytes(response.body);
      const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
      const parsed = JSON.parse(text);
      if (text.includes('"B":') || text.includes('"BS":')) decodeBinaryAttributes(parsed);
      response[PARSED] = parsed;
      response.body = EMPTY_OBJECT;
      return result;
    },
    { step: 'deserialize', priority: 'low', name: 'readBodyAsJson' },
  );
  target.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const parsed = (result.response as { [PARSED]?: Record<string, unknown> } | undefined)?.[PARSED];
      if (parsed)
        result.output = {
          ...parsed,
          $metadata: (result.output as { $metadata: unknown }).$metadata,
        } as typeof result.output;
      return result;
    },
    { step: 'initialize', priority: 'low', name: 'readOutputFromJson' },
  );
}

/** The whole body: plain stream events, which cost far less per chunk than an async iterator. */
function bodyBytes(body: unknown): Promise<Uint8Array> {
  if (body instanceof Uint8Array) return Promise.resolve(body);
  const stream = body as NodeJS.ReadableStream;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer | string) => chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk));
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

/** Read at call time, so a test file can point the same process at its own fresh table. */
export function tableName(): string {
  const name = process.env[ENV.table];
  if (!name) throw new Error(`${ENV.table} is not set`);
  return name;
}
