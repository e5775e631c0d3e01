import { oncePerRequest, requestLocal } from '../runtime/requestScope.ts';
import { deepFreeze } from './deepFreeze.ts';
import { tableName } from './dynamoClient.ts';
import type { ItemKey } from './keys.ts';
import { BATCH_GET_LIMIT, batchGet } from './tableReads.ts';

/**
 * Items by primary key, always strongly consistent, for the reads every request makes: the API
 * key, the caller, the catalogue stamp, bugs and the users they name.
 *
 * - Reads asked for in the same turn of the event loop go to DynamoDB together, as one
 *   BatchGetItem: authentication's first read, the catalogue stamp and an endpoint's prefetched
 *   bug (endpointChain.ts) share one round trip and one call. A call costs far more CPU in the
 *   SDK than the keys it carries, and Lambda bills the CPU.
 * - Inside a request each item is read once (requestScope.ts): a second reader of the same key
 *   gets the same answer, until a write or a lost race makes the request forget its reads.
 * - Batches never mix requests: each request has its own queue, as each Lambda instance serves
 *   one request at a time; the local server's concurrent requests must not look cheaper than that.
 *
 * A remembered item is shared by every reader in the request, so it is frozen (outside
 * production, deepFreeze.ts): code that wants a changed copy makes one.
 */
export type Item = Record<string, unknown>;

interface WaitingRead {
  key: ItemKey;
  settle: (item: Item | undefined) => void;
  fail: (error: unknown) => void;
}

/** Reads waiting for the next flush, by table (a test process may switch tables between files). */
type Queue = Map<string, WaitingRead[]>;

interface QueueHolder {
  queue: Queue | undefined;
}

const outsideRequests: QueueHolder = { queue: undefined };

const keyId = (key: ItemKey) => `${key.pk}\u0000${key.sk}`;

export function readItem(key: ItemKey): Promise<Item | undefined> {
  const { pk, sk } = key;
  return oncePerRequest(`item:${keyId(key)}`, () => enqueue({ pk, sk }));
}

/** Items by key, in the order asked; missing items are left out. */
export async function readItems(itemKeys: readonly ItemKey[]): Promise<Item[]> {
  const items = await Promise.all(itemKeys.map(readItem));
  return items.filter((item): item is Item => item !== undefined);
}

function enqueue(key: ItemKey): Promise<Item | undefined> {
  const holder = requestLocal<QueueHolder>('itemReads', () => ({ queue: undefined })) ?? outsideRequests;
  if (!holder.queue) {
    const queue: Queue = new Map();
    holder.queue = queue;
    // setImmediate, not a microtask: middleware and handlers hand promises along through many
    // microtasks before the reads of one step have all been asked for.
    setImmediate(() => {
      if (holder.queue === queue) holder.queue = undefined;
      for (const [table, reads] of queue) void flush(table, reads);
    });
  }
  const table = tableName();
  return new Promise((settle, fail) => {
    const reads = holder.queue!.get(table) ?? [];
    reads.push({ key, settle, fail });
    holder.queue!.set(table, reads);
  });
}

async function flush(table: string, reads: WaitingRead[]): Promise<void> {
  const byKey = new Map<string, WaitingRead[]>();
  for (const read of reads) {
    const id = keyId(read.key);
    const waiting = byKey.get(id);
    if (waiting) waiting.push(read);
    else byKey.set(id, [read]);
  }
  const ids = [...byKey.keys()];
  const chunks: string[][] = [];
  for (let start = 0; start < ids.length; start += BATCH_GET_LIMIT)
    chunks.push(ids.slice(start, start + BATCH_GET_LIMIT));
  await Promise.all(
    chunks.map(async (chunk) => {
      try {
        const items = await batchGet(
          table,
          chunk.map((id) => byKey.get(id)![0].key),
          { consistent: true },
        );
        const found = new Map(
          items.map((item) => [keyId({ pk: String(item.pk), sk: String(item.sk) }), deepFreeze(item)]),
        );
        for (const id of chunk) {
          const item = found.get(id);
          for (const read of byKey.get(id)!) read.settle(item);
        }
      } catch (error) {
        for (const id of chunk) for (const read of byKey.get(id)!) read.fail(error);
      }
    }),
  );
}
