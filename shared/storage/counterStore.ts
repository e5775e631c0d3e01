import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
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
  | 'flag'
  | 'savedsearch';

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

/** The last id taken of a kind (0: none yet), read strongly consistent. */
export async function lastAllocatedId(kind: IdKind): Promise<number> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.counter(kind), ConsistentRead: true }),
  );
  return Number(result.Item?.value ?? 0);
}

/**
 * Makes the next id of a kind come after `lastTaken`, unless it already does: for items written
 * with ids of their own (an import keeps its source's ids), so later ids never collide with them.
 */
export async function advanceCounter(kind: IdKind, lastTaken: number): Promise<void> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.counter(kind),
        UpdateExpression: 'SET #value = :last',
        ConditionExpression: 'attribute_not_exists(#value) OR #value < :last',
        ExpressionAttributeNames: { '#value': 'value' },
        ExpressionAttributeValues: { ':last': lastTaken },
      }),
    );
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
  }
}
