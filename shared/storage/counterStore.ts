import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './dynamoClient.ts';
import { keys } from './keys.ts';

/** Entity kinds with their own id sequence, like Bugzilla's auto-increment columns. */
export type IdKind =
  | 'user'
  | 'group'
  | 'apikey'
  | 'product'
  | 'component'
  | 'version'
  | 'milestone'
  | 'classification'
  | 'flagtype'
  | 'field'
  | 'keyword'
  | 'bug'
  | 'comment'
  | 'attachment'
  | 'flag';

/**
 * Allocates `count` consecutive ids with one atomic ADD and returns them. Ids taken by a write
 * that later fails are simply skipped, as with SQL sequences.
 */
export async function allocateIds(kind: IdKind, count = 1): Promise<number[]> {
  const result = await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(kind),
      UpdateExpression: 'ADD #value :count',
      ExpressionAttributeNames: { '#value': 'value' },
      ExpressionAttributeValues: { ':count': count },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  const last = Number(result.Attributes?.value);
  return Array.from({ length: count }, (_, index) => last - count + 1 + index);
}

export async function allocateId(kind: IdKind): Promise<number> {
  const [id] = await allocateIds(kind, 1);
  return id;
}
