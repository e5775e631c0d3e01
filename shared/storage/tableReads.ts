import { BatchGetCommand, QueryCommand, type BatchGetCommandInput, type BatchGetCommandOutput, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamoClient.ts';

/** Every page of a query: item collections here are small, and callers need them whole. */
export async function queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new QueryCommand({ ...input, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item of one partition of a secondary index (eventually consistent, as every GSI read is). */
export function queryIndexPartition(indexName: 'gsi1' | 'gsi2' | 'gsi3', partition: string): Promise<Record<string, unknown>[]> {
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

/**
 * Items by primary key, 100 keys a BatchGetItem, retrying what DynamoDB leaves unprocessed.
 * Missing items are simply absent from the result. Batches run a few at a time in parallel, so
 * a 1,000-bug search page costs the latency of about two batches, not ten.
 */
export async function batchGetAll(itemKeys: ReadonlyArray<{ pk: string; sk: string }>, options: { consistent?: boolean } = {}): Promise<Record<string, unknown>[]> {
  const chunks: Array<ReadonlyArray<{ pk: string; sk: string }>> = [];
  for (let start = 0; start < itemKeys.length; start += 100) chunks.push(itemKeys.slice(start, start + 100));
  const results: Record<string, unknown>[][] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const position = next++;
      const items: Record<string, unknown>[] = [];
      let request: BatchGetCommandInput['RequestItems'] = {
        [tableName()]: { Keys: chunks[position].map(({ pk, sk }) => ({ pk, sk })), ConsistentRead: options.consistent },
      };
      while (request && Object.keys(request).length > 0) {
        const result: BatchGetCommandOutput = await documentClient().send(new BatchGetCommand({ RequestItems: request }));
        items.push(...(result.Responses?.[tableName()] ?? []));
        request = result.UnprocessedKeys;
      }
      results[position] = items;
    }
  };
  await Promise.all(Array.from({ length: Math.min(BATCH_GET_PARALLELISM, chunks.length) }, worker));
  return results.flat();
}

const BATCH_GET_PARALLELISM = 5;
