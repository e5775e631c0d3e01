import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/storage/dynamoClient.ts';
import { searchKeys } from '../../shared/storage/keys.ts';
import { loadSnapshotPointer } from '../../shared/storage/search/searchIndexStore.ts';

/** The chunk size of snapshots stored in table items. */
const CHUNK_BYTES = 350_000;

/**
 * Stores a search snapshot as Tracker did before its frames moved to the bucket: gzip streams cut
 * into table chunks of at most 350 KB, and a pointer to them. `inParts` writes them as the core's
 * frames (pointers with `parts`); without it they must be one stream, the whole snapshot (the
 * pointers before parts). Returns the chunk count of each stream.
 */
export async function storeSnapshotInTable(
  generation: string,
  streams: readonly Uint8Array[],
  fields: { highWater: number; bugCount: number },
  inParts: boolean,
): Promise<number[]> {
  if (!inParts && streams.length !== 1) throw new Error('a snapshot without parts is one stream');
  const counts: number[] = [];
  let chunk = 0;
  for (const stream of streams) {
    let count = 0;
    for (let start = 0; start < stream.length || count === 0; start += CHUNK_BYTES, count++)
      await documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            ...searchKeys.snapshotChunk(generation, chunk++),
            type: 'searchSnapshotChunk',
            data: stream.subarray(start, start + CHUNK_BYTES),
          },
        }),
      );
    counts.push(count);
  }
  const previous = await loadSnapshotPointer();
  await documentClient().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...searchKeys.snapshotPointer(),
        type: 'searchSnapshotPointer',
        generation,
        sequence: (previous?.sequence ?? 0) + 1,
        chunks: chunk,
        ...fields,
        writtenAt: new Date().toISOString(),
        ...(inParts ? { parts: [{ name: 'core', frames: counts }] } : {}),
        previous: previous?.generation ?? null,
      },
    }),
  );
  return counts;
}
