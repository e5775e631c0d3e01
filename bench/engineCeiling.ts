/**
 * The most items per second a local DynamoDB Local takes, whatever writes them: BatchWriteItem of
 * 25 items of about 1 KB (an imported comment's size), 12 calls in flight (the importer's
 * setting), into a fresh table in memory or in a data directory on disk. `npm run bench:import`
 * puts the import's items/s beside it, so the table says how close the importer comes to what the
 * engine can take. On disk, each batch is a SQLite transaction whose commit waits for the disk
 * (fsync): that, not the CPU, sets the ceiling there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { startEngines } from '../local/engines.ts';
import { ensureTable } from '../local/provision.ts';

export async function measureEngineCeiling(storage: 'memory' | 'disk', items = 12_000): Promise<number> {
  const scratch = mkdtempSync(join(os.tmpdir(), 'tracker-bench-ceiling-'));
  const engines = await startEngines(storage === 'disk' ? { dataDir: scratch } : { scratchDir: scratch });
  const client = new DynamoDBClient({
    endpoint: engines.dynamodbEndpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    // No change stream: the ceiling of the writes alone (the import's tables have none either).
    await ensureTable(engines.dynamodbEndpoint, 'ceiling', { stream: false });
    const text = 'x'.repeat(900);
    let next = 0;
    const writeUntil = async (last: number) => {
      while (next < last) {
        const first = next;
        next += 25;
        const requests = Array.from({ length: 25 }, (_, offset) => ({
          PutRequest: {
            Item: {
              pk: { S: `bug#${Math.floor((first + offset) / 8)}` },
              sk: { S: `c#${first + offset}` },
              text: { S: text },
            },
          },
        }));
        let pending: Record<string, any> | undefined = { ceiling: requests };
        while (pending && Object.keys(pending).length > 0) {
          const answer: { UnprocessedItems?: Record<string, any> } = await client.send(
            new BatchWriteItemCommand({ RequestItems: pending }),
          );
          pending = answer.UnprocessedItems;
        }
      }
    };
    // A first tenth warms the JVM up and is not timed.
    await Promise.all(Array.from({ length: 12 }, () => writeUntil(items / 10)));
    const started = performance.now();
    await Promise.all(Array.from({ length: 12 }, () => writeUntil(items + items / 10)));
    return items / ((performance.now() - started) / 1000);
  } finally {
    client.destroy();
    await engines.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}
