import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { stampIncrement } from './catalog/catalogCache.ts';
import { documentClient, tableName } from './dynamoClient.ts';
import type { ItemKey } from './keys.ts';

/**
 * Writes many items fast, for loaders that bypass the API (local/import): BatchWriteItem of 25
 * with a bounded number of batches in flight, retrying what DynamoDB leaves unprocessed (it does
 * so under throttling) with a growing pause. A key written twice in one list keeps its last
 * write, since BatchWriteItem refuses two requests for one key in a batch.
 */
export interface BulkWriteOptions {
  /** Batches in flight (default 12). */
  concurrency?: number;
}

type WriteRequest = { PutRequest: { Item: Record<string, unknown> } } | { DeleteRequest: { Key: ItemKey } };

const BATCH = 25;
const MAX_ATTEMPTS = 12;

const keyOf = (request: WriteRequest): string => {
  const key = 'PutRequest' in request ? request.PutRequest.Item : request.DeleteRequest.Key;
  return `${key.pk}\u0000${key.sk}`;
};

/** Puts `items` and deletes `deleted`; answers the number of requests written. */
export async function bulkWrite(
  items: ReadonlyArray<Record<string, unknown> & ItemKey>,
  deleted: readonly ItemKey[] = [],
  options: BulkWriteOptions = {},
): Promise<number> {
  const requests = new Map<string, WriteRequest>();
  for (const key of deleted) {
    const request: WriteRequest = { DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } };
    requests.set(keyOf(request), request);
  }
  for (const Item of items) {
    const request: WriteRequest = { PutRequest: { Item } };
    requests.set(keyOf(request), request);
  }
  const all = [...requests.values()];
  let next = 0;
  const worker = async () => {
    while (next < all.length) {
      const batch = all.slice(next, next + BATCH);
      next += BATCH;
      await writeBatch(batch);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 12) }, worker));
  return all.length;
}

async function writeBatch(batch: WriteRequest[]): Promise<void> {
  let pending: WriteRequest[] = batch;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const table = tableName();
    const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [table]: pending } }));
    pending = (result.UnprocessedItems?.[table] ?? []) as WriteRequest[];
    if (pending.length === 0) return;
    if (attempt >= MAX_ATTEMPTS) throw new Error(`DynamoDB left ${pending.length} writes unprocessed ${attempt} times`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 25 * 2 ** attempt) * (0.5 + Math.random())));
  }
}

/**
 * Bulk writes bypass WriteTransaction, which moves the caches' stamp (catalogCache.ts) with every
 * write of a cached item: a loader moves it itself once it has written catalogue items, groups or
 * parameters (`catalog`) or users (`users`), so every running instance reads them afresh.
 */
export async function moveCacheStamp(touches: { catalog: boolean; users: boolean }): Promise<void> {
  if (!touches.catalog && !touches.users) return;
  const { key, update } = stampIncrement(touches);
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: key,
      UpdateExpression: update.expression,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: update.values,
    }),
  );
}
