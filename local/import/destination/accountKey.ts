import { generateApiKey, secretDigest } from '../../../shared/domain/identity/credentials.ts';
import { toStorageTime } from '../../../shared/domain/time.ts';
import { allocateId } from '../../../shared/storage/counterStore.ts';
import { listApiKeys, putNewApiKey } from '../../../shared/storage/identity/apiKeyStore.ts';
import { loadUserWithMembership } from '../../../shared/storage/identity/userStore.ts';
import { WriteTransaction } from '../../../shared/storage/transaction.ts';

/**
 * A way into the target after the import. Imported users have no password; if the importing
 * account (the administrator on the source) is not one the target already knew with a password
 * or a key, it gets a new API key, shown once in the text report, so the operator can set
 * passwords and keys for the others through the API.
 */
export async function ensureAccountKey(userId: number): Promise<{ login: string; key: string } | null> {
  const record = await loadUserWithMembership(userId, { consistent: true });
  if (!record || record.user.passwordHash) return null;
  if ((await listApiKeys(userId)).some((key) => !key.revoked)) return null;
  const key = generateApiKey();
  const transaction = new WriteTransaction();
  putNewApiKey(transaction, secretDigest(key), {
    id: await allocateId('apikey'),
    userId,
    description: 'Created by the import from Bugzilla',
    createdAt: toStorageTime(new Date()),
  });
  await transaction.commit();
  return { login: record.user.login, key };
}
