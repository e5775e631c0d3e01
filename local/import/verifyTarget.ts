import type { Server } from 'node:http';
import { generateApiKey, secretDigest } from '../../shared/domain/identity/credentials.ts';
import { AUDIT_CLASS } from '../../shared/domain/instance/audit.ts';
import { toStorageTime } from '../../shared/domain/time.ts';
import { allocateId } from '../../shared/storage/counterStore.ts';
import { listApiKeys, putNewApiKey, updateApiKey } from '../../shared/storage/identity/apiKeyStore.ts';
import { findUserIdByLogin } from '../../shared/storage/identity/userStore.ts';
import { WriteTransaction } from '../../shared/storage/transaction.ts';
import { startApiGateway } from '../apiGatewayEmulator.ts';
import { ImportRefusal } from './importErrors.ts';
import { createBugzillaClient } from './source/index.ts';
import { runVerification } from './verify/index.ts';
import type { VerifyResult } from './verify/verifyImport.ts';

/**
 * `--verify` and `--verify-sample N`: the source and the target are read through their REST APIs
 * and compared (verify/). A deployed target is read at `--target-url` with `--target-api-key`
 * (its ApiUrl output and a key of an administrator there). A local target (`--data-dir`) is
 * served from this process on a loopback port for the check, with the storage already pointed
 * at it, and read with a key of the importing account made for the check and revoked after it,
 * so both sides are read by the same login (personal tags included).
 */
export interface VerifyTargetOptions {
  from: string;
  apiKey: string;
  connections: number;
  /** Compare this many random bugs instead of all. */
  sample?: number;
  /** The target's REST root and a key there; without them the local target is served here. */
  targetUrl?: string;
  targetApiKey?: string;
  /** The importing account's login on the source (the import report's `source.account`). */
  account: string | null;
  onProgress?: (progress: { done: number; total: number; differences: number }) => void;
  /**
   * How long a request may keep failing (a busy source or target answering 503) before the check
   * gives up; 10 minutes by default, the import's own patience (runImport.ts).
   */
  retryForMs?: number;
}

export interface TargetVerification {
  result: VerifyResult;
  text: string;
  equal: boolean;
}

export async function verifyTarget(options: VerifyTargetOptions): Promise<TargetVerification> {
  const retryForMs = options.retryForMs ?? 600_000;
  const source = createBugzillaClient({
    baseUrl: options.from,
    apiKey: options.apiKey,
    connections: options.connections,
    retryForMs,
  });
  if (options.targetUrl) {
    if (!options.targetApiKey) throw new ImportRefusal('verify', '--target-url needs --target-api-key.');
    const target = createBugzillaClient({
      baseUrl: options.targetUrl,
      apiKey: options.targetApiKey,
      connections: options.connections,
      retryForMs,
    });
    return runVerification({ source, target, sample: options.sample, onProgress: options.onProgress });
  }
  if (!options.account)
    throw new ImportRefusal('verify', 'The source account is unknown: give --target-url and --target-api-key.');
  const userId = await findUserIdByLogin(options.account);
  if (userId === null)
    throw new ImportRefusal('verify', `${options.account} is not a user of the target: was the import finished?`);
  const { server, url } = await startApiGateway({ port: 0, host: '127.0.0.1' });
  const key = await createCheckKey(userId);
  try {
    const target = createBugzillaClient({
      baseUrl: `${url}/rest`,
      apiKey: key,
      connections: options.connections,
      retryForMs,
    });
    return await runVerification({ source, target, sample: options.sample, onProgress: options.onProgress });
  } finally {
    await revokeCheckKey(userId, key);
    await closeServer(server);
  }
}

const CHECK_KEY_DESCRIPTION = 'Import verification (revoked when the check ends)';

async function createCheckKey(userId: number): Promise<string> {
  const key = generateApiKey();
  const transaction = new WriteTransaction();
  putNewApiKey(transaction, secretDigest(key), {
    id: await allocateId('apikey'),
    userId,
    description: CHECK_KEY_DESCRIPTION,
    createdAt: toStorageTime(new Date()),
  });
  await transaction.commit();
  return key;
}

async function revokeCheckKey(userId: number, key: string): Promise<void> {
  const digest = secretDigest(key);
  const stored = (await listApiKeys(userId)).find((candidate) => candidate.digest === digest);
  if (!stored) return;
  await updateApiKey(
    digest,
    stored.rev ?? 0,
    { revoked: true },
    {
      auditClass: AUDIT_CLASS.user,
      objectId: stored.id,
      userId,
      changes: { revoked: { removed: '0', added: '1' } },
      at: new Date(),
    },
  );
}

const closeServer = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
