import { BatchGetItemCommand, type BatchGetItemCommandOutput, type KeysAndAttributes } from '@aws-sdk/client-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import { lowLevelReadClient, tableName } from '../dynamoClient.ts';
import { bugKeys } from '../keys.ts';

/**
 * How many comments of each bug are private, read from the bug items: for a search index loaded
 * from a snapshot older than its `privateCommentCount` column (searchIndexHolder.ts). Once per
 * index and only for such a snapshot: the compactor's next snapshot holds the column.
 */
const BATCH = 100;
const PARALLEL_BATCHES = 8;
const UNPROCESSED_ATTEMPTS = 8;

export async function loadPrivateCommentCounts(bugIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  const table = tableName();
  const batches: number[][] = [];
  for (let start = 0; start < bugIds.length; start += BATCH) batches.push(bugIds.slice(start, start + BATCH));
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const ids = batches[next++];
      let request: Record<string, KeysAndAttributes> | undefined = {
        [table]: {
          Keys: ids.map((id) => marshall(bugKeys.bug(id))),
          // Eventually consistent: a write since the snapshot is in the change log, which the index applies anyway.
          ProjectionExpression: 'id, privateCommentCount',
        },
      };
      for (let attempt = 1; request && Object.keys(request).length > 0; attempt++) {
        if (attempt > UNPROCESSED_ATTEMPTS) throw new Error('DynamoDB left bug items unprocessed too often');
        if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 5));
        const result: BatchGetItemCommandOutput = await lowLevelReadClient().send(
          new BatchGetItemCommand({ RequestItems: request }),
        );
        for (const raw of result.Responses?.[table] ?? []) {
          const item = unmarshall(raw);
          counts.set(Number(item.id), Number(item.privateCommentCount ?? 0));
        }
        request = result.UnprocessedKeys;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_BATCHES, batches.length) }, worker));
  return counts;
}
