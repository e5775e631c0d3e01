import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { bootstrapInstallation } from '../../../shared/application/instance/bootstrapInstallation.ts';
import { DEFAULT_ADMIN_LOGIN } from '../../../shared/domain/instance/installation.ts';
import { startEngines } from '../../engines.ts';
import { ensureBucket, ensureTable } from '../../provision.ts';
import { pointStorageAt, type StorageTarget } from './storageTarget.ts';

/**
 * The local installation as the target (`--data-dir`, default `.data`), as `npm run seed` opens
 * it: with `npm start` stopped, the local engines run on the directory for the import, the table
 * and bucket are created if needed, and a new installation is bootstrapped (its administrator is
 * printed; the import then replaces it if the source has a user with its id or login).
 */
export interface LocalTarget extends StorageTarget {
  stop(): Promise<void>;
  /** The new installation's administrator, when this run created it. */
  created?: { login: string; password: string; apiKey: string };
}

export async function openLocalTarget(dataDir: string, options: { create: boolean }): Promise<LocalTarget> {
  let engines = await startEngines({ dataDir: resolve(dataDir) });
  const table = process.env.TRACKER_TABLE ?? 'tracker';
  if (!options.create && !(await tableExists(engines.dynamodbEndpoint, table))) {
    // A dry run into a directory without an installation reads as for a new one, in memory.
    await engines.stop();
    engines = await startEngines({ scratchDir: await mkdtemp(join(tmpdir(), 'tracker-import-dry-')) });
    await ensureTable(engines.dynamodbEndpoint, table);
    await ensureBucket(engines.s3Endpoint, process.env.TRACKER_BUCKET ?? 'tracker-attachments');
  }
  const target: LocalTarget = {
    table,
    bucket: process.env.TRACKER_BUCKET ?? 'tracker-attachments',
    dynamodbEndpoint: engines.dynamodbEndpoint,
    s3Endpoint: engines.s3Endpoint,
    description: `local installation in ${dataDir}`,
    stop: () => engines.stop(),
  };
  try {
    pointStorageAt(target);
    process.env.TRACKER_REQUEST_LOG = 'off';
    if (!options.create) return target;
    await ensureTable(engines.dynamodbEndpoint, target.table);
    await ensureBucket(engines.s3Endpoint, target.bucket);
    const installation = await bootstrapInstallation({
      adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? DEFAULT_ADMIN_LOGIN,
      adminApiKey: process.env.TRACKER_ADMIN_API_KEY,
    });
    if (installation.created) target.created = installation.admin;
    return target;
  } catch (error) {
    await engines.stop();
    throw error;
  }
}

async function tableExists(endpoint: string, table: string): Promise<boolean> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    await client.send(new DescribeTableCommand({ TableName: table }));
    return true;
  } catch (error) {
    if (error instanceof ResourceNotFoundException) return false;
    throw error;
  } finally {
    client.destroy();
  }
}
