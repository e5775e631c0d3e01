/**
 * API keys, stored by the digest of the secret (never the secret), with a reference item in the
 * owner's partition so a user's keys can be listed without a scan.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { recordAudit } from '../instance/auditStore.ts';
import { readItem } from '../itemReads.ts';
import { keys } from '../keys.ts';
import { batchGetAll, queryAll } from '../tableReads.ts';
import { WriteTransaction } from '../transaction.ts';

export interface ApiKeyRecord {
  id: number;
  userId: number;
  description: string;
  revoked: boolean;
  createdAt: string;
  lastUsedAt: string | null;
  /** Revision when read; the last-used stamp does not raise it. */
  rev?: number;
}

const toApiKey = (item: Record<string, unknown>): ApiKeyRecord => ({
  id: Number(item.id),
  userId: Number(item.userId),
  description: String(item.description ?? ''),
  revoked: item.revoked === true,
  createdAt: String(item.createdAt),
  lastUsedAt: item.lastUsedAt ? String(item.lastUsedAt) : null,
  rev: Number(item.rev ?? 0),
});

export async function findApiKey(digest: string): Promise<ApiKeyRecord | null> {
  const item = await readItem(keys.apiKey(digest));
  return item ? toApiKey(item) : null;
}

/** Best effort: a lost last-used stamp must never fail the request that used the key. */
export async function markApiKeyUsed(digest: string, at: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.apiKey(digest),
      UpdateExpression: 'SET lastUsedAt = :at',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    }),
  );
}

export function putNewApiKey(
  transaction: WriteTransaction,
  digest: string,
  record: Omit<ApiKeyRecord, 'revoked' | 'lastUsedAt'>,
): void {
  transaction.putNew({ ...keys.apiKey(digest), type: 'apiKey', ...record, rev: undefined, revoked: false }, () =>
    errors.invalidParameter('That API key is already in use.'),
  );
  transaction.put({
    ...keys.apiKeyReference(record.userId, record.id),
    type: 'apiKeyReference',
    keyId: record.id,
    digest,
  });
}

/** `ownerRev`: the owner's user item as read (its revision is raised: the key count changed). */
export async function createApiKey(
  digest: string,
  record: Omit<ApiKeyRecord, 'revoked' | 'lastUsedAt'>,
  audit: AuditEntry,
  ownerRev: number,
): Promise<void> {
  const transaction = new WriteTransaction();
  putNewApiKey(transaction, digest, record);
  transaction.updateAtRevision(keys.user(record.userId), ownerRev);
  recordAudit(transaction, audit);
  await transaction.commit();
}

/**
 * A user's keys, with the digest each is stored under (for updates): the references in the user's
 * partition, then the key items, both read strongly consistent, so a key just created is listed.
 */
export async function listApiKeys(userId: number): Promise<Array<ApiKeyRecord & { digest: string }>> {
  const references = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.apiKeyReferencePrefix },
    ConsistentRead: true,
  });
  const digests = references.map((reference) => String(reference.digest));
  const items = await batchGetAll(
    digests.map((digest) => keys.apiKey(digest)),
    { consistent: true },
  );
  const found = new Map(items.map((item) => [String(item.pk).slice('APIKEY#'.length), item]));
  return digests.filter((digest) => found.has(digest)).map((digest) => ({ ...toApiKey(found.get(digest)!), digest }));
}

export async function updateApiKey(
  digest: string,
  rev: number,
  changes: { revoked?: boolean; description?: string },
  audit: AuditEntry,
): Promise<void> {
  const assignments: string[] = [];
  const values: Record<string, unknown> = {};
  if (changes.revoked !== undefined) {
    assignments.push('revoked = :revoked');
    values[':revoked'] = changes.revoked;
  }
  if (changes.description !== undefined) {
    assignments.push('description = :description');
    values[':description'] = changes.description;
  }
  if (assignments.length === 0) return;
  const transaction = new WriteTransaction();
  transaction.updateAtRevision(keys.apiKey(digest), rev, { expression: `SET ${assignments.join(', ')}`, values });
  recordAudit(transaction, audit);
  await transaction.commit();
}
