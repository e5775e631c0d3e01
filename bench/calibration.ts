/**
 * DynamoDB Local on its own, for scale: GetItem throughput and latency without our code in the way
 * (its warm-up also warms the JVM before the first scenario), and the sizes of the seeded items.
 */
import { type AttributeValue, DynamoDBClient, GetItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { PARTITION_KEY, SORT_KEY } from '../shared/storage/tableSchema.ts';
import { CONNECTIONS, elapsed } from './benchSettings.ts';

export interface Calibration {
  operations: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** DynamoDB's item size rule, approximately: attribute names plus values (numbers ~1 byte per 2 digits). */
function attributeSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return Math.ceil(value.N.replace(/^-|\./g, '').length / 2) + 1;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L) return 3 + value.L.reduce((sum, entry) => sum + 1 + attributeSize(entry), 0);
  if (value.M)
    return (
      3 +
      Object.entries(value.M).reduce(
        (sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + attributeSize(entry),
        0,
      )
    );
  return 0;
}

export interface ItemSizes {
  /** Item kind (sort-key prefix) → average and largest size in bytes over the sampled bugs. */
  kinds: Record<string, { count: number; average: number; max: number }>;
  bugs: number;
}

/** Sizes of the items in the seeded bugs' partitions (the bug, its comments, its history). */
export async function measureItemSizes(endpoint: string, table: string, bugIds: readonly number[]): Promise<ItemSizes> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const sample = bugIds.slice(0, 30);
  const sizes: Record<string, number[]> = {};
  for (const id of sample) {
    const result = await client.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': PARTITION_KEY },
        ExpressionAttributeValues: { ':pk': { S: `BUG#${id}` } },
      }),
    );
    for (const item of result.Items ?? []) {
      const kind = String(item[SORT_KEY]?.S ?? '').split('#')[0]!;
      const size = Object.entries(item).reduce(
        (sum, [name, value]) => sum + Buffer.byteLength(name) + attributeSize(value),
        0,
      );
      sizes[kind] ??= [];
      sizes[kind].push(size);
    }
  }
  client.destroy();
  const kinds = Object.fromEntries(
    Object.entries(sizes).map(([kind, values]) => [
      kind,
      { count: values.length, average: values.reduce((a, b) => a + b, 0) / values.length, max: Math.max(...values) },
    ]),
  );
  return { kinds, bugs: sample.length };
}

/**
 * GetItem (of a missing key) against DynamoDB Local from this process, CONNECTIONS at a time. Its
 * warm-up also warms the JVM's JIT before the first scenario.
 */
export async function calibrateDynamodb(
  endpoint: string,
  table: string,
  warmupSeconds: number,
  seconds: number,
): Promise<Calibration> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const command = () =>
    new GetItemCommand({
      TableName: table,
      Key: { [PARTITION_KEY]: { S: 'BENCH#probe' }, [SORT_KEY]: { S: 'BENCH#probe' } },
    });
  const loop = async (until: number, latencies?: number[]) => {
    while (performance.now() < until) {
      const start = performance.now();
      await client.send(command());
      latencies?.push(performance.now() - start);
    }
  };
  try {
    const warmUntil = performance.now() + warmupSeconds * 1_000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(warmUntil)));
    const latencies: number[] = [];
    const started = performance.now();
    const until = started + seconds * 1_000;
    await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(until, latencies)));
    const measured = elapsed(started);
    latencies.sort((a, b) => a - b);
    if (latencies.length === 0) return { operations: 0, seconds: measured, p50: NaN, p99: NaN };
    const at = (quantile: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(quantile * latencies.length))] ?? NaN;
    return { operations: latencies.length, seconds: measured, p50: at(0.5), p99: at(0.99) };
  } finally {
    client.destroy();
  }
}
