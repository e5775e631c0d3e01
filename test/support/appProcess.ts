import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BatchWriteItemCommand, DynamoDBClient, ScanCommand, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ensureBucket, ensureTable } from '../../local/provision.ts';
import { ENV } from '../../shared/storage/tableSchema.ts';
import { dynamodbEndpoint, s3Endpoint, testStorageName } from './testEngines.ts';

/**
 * A second installation for tests that need two (an importer's source and target): the handlers
 * read their table and bucket from the environment and keep per-process caches, so two
 * installations cannot share the test's process. This one runs the same API Gateway emulator
 * in a child process of its own, on the same local engines, over a table and bucket of its own.
 *
 * `copyInstallation` copies every item and object of one installation into a fresh table and
 * bucket: the simplest way to get two installations that hold exactly the same bugs, ids and
 * times included.
 */

export interface Storage {
  table: string;
  bucket: string;
}

export interface AppProcess {
  url: string;
  storage: Storage;
  close(): Promise<void>;
}

const MAIN = join(dirname(fileURLToPath(import.meta.url)), 'appProcessMain.ts');

/** The table and bucket of the installation startTestApp made in this process. */
export const testAppStorage = (): Storage => ({ table: process.env[ENV.table]!, bucket: process.env[ENV.bucket]! });

export function freshStorage(): Storage {
  const name = testStorageName();
  return { table: name, bucket: name };
}

export async function copyInstallation(from: Storage, to: Storage): Promise<void> {
  await ensureTable(dynamodbEndpoint(), to.table);
  await ensureBucket(s3Endpoint(), to.bucket);
  const dynamo = new DynamoDBClient({
    endpoint: dynamodbEndpoint(),
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  let start: Record<string, any> | undefined;
  do {
    const page = await dynamo.send(new ScanCommand({ TableName: from.table, ExclusiveStartKey: start }));
    const items = page.Items ?? [];
    for (let index = 0; index < items.length; index += 25) {
      let writes: WriteRequest[] = items.slice(index, index + 25).map((Item) => ({ PutRequest: { Item } }));
      while (writes.length > 0) {
        const written = await dynamo.send(new BatchWriteItemCommand({ RequestItems: { [to.table]: writes } }));
        writes = written.UnprocessedItems?.[to.table] ?? [];
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  dynamo.destroy();

  const s3 = new S3Client({
    endpoint: s3Endpoint(),
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: from.bucket, ContinuationToken: token }));
    for (const { Key } of page.Contents ?? []) {
      const object = await s3.send(new GetObjectCommand({ Bucket: from.bucket, Key }));
      await s3.send(
        new PutObjectCommand({
          Bucket: to.bucket,
          Key,
          Body: await object.Body!.transformToByteArray(),
          ContentType: object.ContentType,
          Metadata: object.Metadata,
        }),
      );
    }
    token = page.NextContinuationToken;
  } while (token);
  s3.destroy();
}

/** Serves `storage` (a table and bucket on the test engines) from a child process. */
export async function startAppProcess(storage: Storage): Promise<AppProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      [ENV.table]: storage.table,
      [ENV.bucket]: storage.bucket,
      [ENV.dynamodbEndpoint]: dynamodbEndpoint(),
      [ENV.s3Endpoint]: s3Endpoint(),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n')[0];
      if (output.includes('\n')) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the installation's process ended with ${code} before serving`)));
  });
  return { url, storage, close: () => stop(child) };
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
