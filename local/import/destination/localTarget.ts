import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { bootstrapInstallation } from '../../../shared/application/instance/bootstrapInstallation.ts';
import { DEFAULT_ADMIN_LOGIN } from '../../../shared/domain/instance/installation.ts';
import { DataDirInUse } from '../../dataDirLock.ts';
import { type LocalEngines, startEngines } from '../../engines.ts';
import { ensureBucket, ensureTable } from '../../provision.ts';
import { pointStorageAt, type StorageTarget } from './storageTarget.ts';

/**
 * The local installation as the target (`--data-dir`, default `.data`), as `npm run seed` opens
 * it: with `npm start` stopped (a DynamoDB Local already serving the directory is refused), the
 * local engines run on the directory for the import, in a process group of their own so that
 * Ctrl-C reaches only the importer (which then stops after its batch, and stops them), and the
 * table and bucket are created if needed. A new installation is bootstrapped by `bootstrap()`,
 * which the importer calls only once the source and the target are accepted (its administrator
 * is printed; the import then replaces it if the source has a user with its id or login).
 */
export interface LocalTarget extends StorageTarget {
  stop(): Promise<void>;
  /** Makes the directory an installation if it is not one yet; sets `created` when it did. */
  bootstrap(): Promise<void>;
  /** The new installation's administrator, when this run created it. */
  created?: { login: string; password: string; apiKey: string };
  /** The table did not exist before this run. */
  newTable: boolean;
}

export class TargetInUse extends Error {}

export async function openLocalTarget(dataDir: string, options: { create: boolean }): Promise<LocalTarget> {
  const busy = dynamodbServing(join(resolve(dataDir), 'dynamodb'));
  if (busy !== null)
    throw new TargetInUse(
      `${dataDir} is in use by a running DynamoDB Local (pid ${busy}, probably npm start): stop it first, the import needs the installation to itself.`,
    );
  const table = process.env.TRACKER_TABLE ?? 'tracker';
  // A dry run into a directory that holds no DynamoDB file has no table to read: one engine
  // start (tens of seconds on a busy machine) is saved by not opening the directory at all.
  const empty = !options.create && !existsSync(join(resolve(dataDir), 'dynamodb', SHARED_DB_FILE));
  let engines: LocalEngines;
  try {
    engines = empty
      ? await startScratchEngines(table)
      : await startEngines({ dataDir: resolve(dataDir), ownProcessGroup: true, command: 'npm run import' });
  } catch (error) {
    // Another program holds the directory (dataDirLock.ts): refused as a target in use.
    if (error instanceof DataDirInUse) throw new TargetInUse(error.message);
    throw error;
  }
  if (!empty && !options.create && !(await tableExists(engines.dynamodbEndpoint, table))) {
    // A dry run into a directory without an installation reads as for a new one, in memory.
    await engines.stop();
    engines = await startScratchEngines(table);
  }
  const target: LocalTarget = {
    table,
    bucket: process.env.TRACKER_BUCKET ?? 'tracker-attachments',
    dynamodbEndpoint: engines.dynamodbEndpoint,
    s3Endpoint: engines.s3Endpoint,
    description: `local installation in ${dataDir}`,
    stop: () => engines.stop(),
    newTable: false,
    async bootstrap() {
      pointStorageAt(target);
      const installation = await bootstrapInstallation({
        adminLogin: process.env.TRACKER_ADMIN_LOGIN ?? DEFAULT_ADMIN_LOGIN,
        adminApiKey: process.env.TRACKER_ADMIN_API_KEY,
      });
      if (installation.created) target.created = installation.admin;
    },
  };
  try {
    pointStorageAt(target);
    process.env.TRACKER_REQUEST_LOG = 'off';
    if (!options.create) return target;
    target.newTable = !(await tableExists(engines.dynamodbEndpoint, target.table));
    await ensureTable(engines.dynamodbEndpoint, target.table);
    await ensureBucket(engines.s3Endpoint, target.bucket);
    return target;
  } catch (error) {
    await engines.stop();
    throw error;
  }
}

/** DynamoDB Local's one file under `-sharedDb`: where it is missing, no table was ever made. */
const SHARED_DB_FILE = 'shared-local-instance.db';

/** Engines on a scratch directory, with an empty table and bucket, for a dry run to read. */
async function startScratchEngines(table: string): Promise<LocalEngines> {
  const scratchDir = await mkdtemp(join(tmpdir(), 'tracker-import-dry-'));
  const engines = await startEngines({ scratchDir, ownProcessGroup: true });
  // Stopping them removes what the dry run wrote, rather than leave a directory per run.
  const scratch: LocalEngines = {
    ...engines,
    stop: () => engines.stop().finally(() => rm(scratchDir, { recursive: true, force: true })),
  };
  try {
    await ensureTable(engines.dynamodbEndpoint, table);
    await ensureBucket(engines.s3Endpoint, process.env.TRACKER_BUCKET ?? 'tracker-attachments');
  } catch (error) {
    await scratch.stop();
    throw error;
  }
  return scratch;
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

/**
 * The pid of a DynamoDB Local already serving `dbPath` (npm start, another import), or null.
 * Linux's /proc only; elsewhere nothing is found and the check is skipped.
 */
export function dynamodbServing(dbPath: string): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const at = args.indexOf('-dbPath');
    if (at >= 0 && args.some((arg) => arg.includes('DynamoDBLocal')) && resolve(args[at + 1] ?? '') === dbPath)
      return Number(entry);
  }
  return null;
}
