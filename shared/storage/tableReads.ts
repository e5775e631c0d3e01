import {
  type AttributeValue,
  BatchGetItemCommand,
  type BatchGetItemCommandOutput,
  type KeysAndAttributes,
  QueryCommand,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { lowLevelReadClient, tableName } from './dynamoClient.ts';

/**
 * Queries and large batch reads, on the low-level client with its cached middleware stack
 * (dynamoClient.ts); values are marshalled here as the document client would.
 */
export interface QueryInput extends Omit<QueryCommandInput, 'ExpressionAttributeValues' | 'ExclusiveStartKey'> {
  ExpressionAttributeValues?: Record<string, unknown>;
}

const toItem = (raw: Record<string, AttributeValue>) => unmarshall(raw) as Record<string, unknown>;

/**
 * DynamoDB's limits on key values, in UTF-8 bytes. No item can have a longer key, so a read of one
 * finds nothing; DynamoDB would refuse the read itself with a ValidationException (a 500). Names
 * from requests (logins, aliases, product names) become keys, and a 3 KB login is a name that does
 * not exist, not a fault.
 */
const MAX_PARTITION_KEY_BYTES = 2_048;
const MAX_SORT_KEY_BYTES = 1_024;

const keyCanExist = ({ pk, sk }: { pk: string; sk: string }) =>
  Buffer.byteLength(pk) <= MAX_PARTITION_KEY_BYTES && Buffer.byteLength(sk) <= MAX_SORT_KEY_BYTES;

/** Every page of a query: item collections here are small, and callers need them whole. */
export async function queryAll(input: QueryInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const partition = input.ExpressionAttributeValues?.[':pk'];
  if (typeof partition === 'string' && Buffer.byteLength(partition) > MAX_PARTITION_KEY_BYTES) return items;
  const values =
    input.ExpressionAttributeValues && marshall(input.ExpressionAttributeValues, { removeUndefinedValues: true });
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await lowLevelReadClient().send(
      new QueryCommand({ ...input, ExpressionAttributeValues: values, ExclusiveStartKey: startKey }),
    );
    for (const raw of page.Items ?? []) items.push(toItem(raw));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** The first `count` items a query answers, reading no more pages than they take. */
export async function queryFirst(input: QueryInput, count: number): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  if (count <= 0) return items;
  const values =
    input.ExpressionAttributeValues && marshall(input.ExpressionAttributeValues, { removeUndefinedValues: true });
  let startKey: Record<string, AttributeValue> | undefined;
  do {
    const page = await lowLevelReadClient().send(
      new QueryCommand({
        ...input,
        ExpressionAttributeValues: values,
        ExclusiveStartKey: startKey,
        Limit: count - items.length,
      }),
    );
    for (const raw of page.Items ?? []) items.push(toItem(raw));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < count);
  return items;
}

/** Every item of one partition of a secondary index (eventually consistent, as every GSI read is). */
export function queryIndexPartition(
  indexName: 'gsi1' | 'gsi2' | 'gsi3',
  partition: string,
): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName(),
    IndexName: indexName,
    KeyConditionExpression: `${indexName}pk = :pk`,
    ExpressionAttributeValues: { ':pk': partition },
  });
}

/** Every item of one base-table partition, read strongly consistent (the catalogue listings). */
export function queryPartition(partition: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': partition },
    ConsistentRead: true,
  });
}

/** The most keys one BatchGetItem takes. */
export const BATCH_GET_LIMIT = 100;
const UNPROCESSED_ATTEMPTS = 8;

/**
 * One BatchGetItem of at most 100 keys of one table, asking again (with a growing pause) for what
 * DynamoDB leaves unprocessed. Missing items, and keys too long to exist, are simply absent from
 * the result.
 */
export async function batchGet(
  table: string,
  itemKeys: ReadonlyArray<{ pk: string; sk: string }>,
  options: { consistent?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  const possible = itemKeys.filter(keyCanExist);
  if (possible.length === 0) return items;
  let request: Record<string, KeysAndAttributes> | undefined = {
    [table]: { Keys: possible.map(({ pk, sk }) => marshall({ pk, sk })), ConsistentRead: options.consistent },
  };
  for (let attempt = 1; request && Object.keys(request).length > 0; attempt++) {
    if (attempt > 1) {
      if (attempt > UNPROCESSED_ATTEMPTS)
        throw new Error(
          `DynamoDB left ${request[table]?.Keys?.length ?? 0} keys unprocessed ${UNPROCESSED_ATTEMPTS} times`,
        );
      await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 5));
    }
    const result: BatchGetItemCommandOutput = await lowLevelReadClient().send(
      new BatchGetItemCommand({ RequestItems: request }),
    );
    for (const raw of result.Responses?.[table] ?? []) items.push(toItem(raw));
    request = result.UnprocessedKeys;
  }
  return items;
}

/**
 * Items by primary key, 100 keys a BatchGetItem. Batches run a few at a time in parallel, so a
 * large read costs the latency of about two batches, not ten. Unlike itemReads.ts, nothing is
 * remembered: this is for large reads made once (snapshot chunks, attachments and comments by id).
 */
export async function batchGetAll(
  itemKeys: ReadonlyArray<{ pk: string; sk: string }>,
  options: { consistent?: boolean; keysPerCall?: number; parallel?: number } = {},
): Promise<Record<string, unknown>[]> {
  const perCall = options.keysPerCall ?? BATCH_GET_LIMIT;
  const chunks: Array<ReadonlyArray<{ pk: string; sk: string }>> = [];
  for (let start = 0; start < itemKeys.length; start += perCall) chunks.push(itemKeys.slice(start, start + perCall));
  const results: Record<string, unknown>[][] = new Array(chunks.length);
  const table = tableName();
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const position = next++;
      results[position] = await batchGet(table, chunks[position], options);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.parallel ?? BATCH_GET_PARALLELISM, chunks.length) }, worker));
  return results.flat();
}

const BATCH_GET_PARALLELISM = 5;
