import { randomBytes } from 'node:crypto';
import { DeleteTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { inject } from 'vitest';

/**
 * The local engines an integration test file talks to. globalSetup starts one DynamoDB Local per
 * vitest worker: a single one serialises every worker's writes through one SQLite database and
 * becomes the bottleneck of the run, and a stall in it (a JVM collection) stalls every file at
 * once. A worker runs one file at a time, so each file has its engine to itself.
 */
export function dynamodbEndpoint(): string {
  const endpoints = inject('dynamodbEndpoints');
  return endpoints[(workerNumber() - 1) % endpoints.length]!;
}

export function s3Endpoint(): string {
  return inject('s3Endpoint');
}

/**
 * A name for a test's table or bucket. It carries the worker's number so that the tables a file
 * leaves behind can be dropped when it ends (`dropWorkerTables`) without touching a table the
 * other worker's file is using.
 */
export function testStorageName(): string {
  return `${workerPrefix()}${randomBytes(6).toString('hex')}`;
}

/**
 * Drops every table this worker's files created. An in-memory DynamoDB Local keeps every table,
 * and every table's stream records, until it stops: left in place, a run's hundreds of tables
 * fill its heap and slow every later file. Also the guarantee that no file sees another's data.
 */
export async function dropWorkerTables(): Promise<void> {
  const client = new DynamoDBClient({
    endpoint: dynamodbEndpoint(),
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    let start: string | undefined;
    const mine: string[] = [];
    do {
      const page = await client.send(new ListTablesCommand({ ExclusiveStartTableName: start }));
      mine.push(...(page.TableNames ?? []).filter((name) => name.startsWith(workerPrefix())));
      start = page.LastEvaluatedTableName;
    } while (start);
    for (const TableName of mine) await client.send(new DeleteTableCommand({ TableName }));
  } finally {
    client.destroy();
  }
}

function workerPrefix(): string {
  return `tracker-test-w${workerNumber()}-`;
}

/** 1 to maxWorkers (vitest sets VITEST_POOL_ID in each worker). */
function workerNumber(): number {
  return Number(process.env.VITEST_POOL_ID ?? '1');
}
