import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
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

/** Every item of one partition of a secondary index (a listing such as gsi1 `PRODUCTS`). */
export function queryIndexPartition(indexName: 'gsi1' | 'gsi2' | 'gsi3', partition: string): Promise<Record<string, unknown>[]> {
  return queryAll({
    TableName: tableName(),
    IndexName: indexName,
    KeyConditionExpression: `${indexName}pk = :pk`,
    ExpressionAttributeValues: { ':pk': partition },
  });
}
