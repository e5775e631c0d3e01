import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { toStorageTime } from '../../domain/time.ts';
import { tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';
import { queryAll, queryFirst } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';

/**
 * The audit log. Entries are written inside the transaction of the change they describe; a
 * small per-class "latest" item makes `last_audit_time` one query however long the log grows.
 */
export function recordAudit(transaction: WriteTransaction, entry: AuditEntry): void {
  const at = toStorageTime(entry.at);
  const unique = randomUUID();
  transaction.put({
    ...keys.auditEntry(entry.auditClass, at, unique),
    ...keys.auditOfObject(entry.auditClass, entry.objectId, at, unique),
    type: 'audit',
    auditClass: entry.auditClass,
    objectId: entry.objectId,
    userId: entry.userId,
    changes: entry.changes,
    at,
  });
  transaction.updateOnce(keys.auditLatest(entry.auditClass), {
    expression: 'SET #at = :at, auditClass = :class',
    names: { '#at': 'at' },
    values: { ':at': at, ':class': entry.auditClass },
  });
}

/** The latest audit time per class. */
export async function latestAuditTimes(): Promise<Map<string, string>> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.auditLatestPartition, ':prefix': 'LATEST#' },
  });
  return new Map(items.map((item) => [String(item.auditClass), String(item.at)]));
}

/**
 * One object's audit entries, newest first, `offset` skipped and at most `limit` returned, from
 * its own gsi1 partition (no scan of the class's log). Entries written before that index existed
 * are not there.
 */
export async function auditEntriesOf(
  auditClass: string,
  objectId: number | string,
  page: { limit: number; offset: number },
): Promise<AuditEntry[]> {
  const items = await queryFirst(
    {
      TableName: tableName(),
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.auditOfObjectIndex(auditClass, objectId) },
      ScanIndexForward: false,
    },
    page.offset + page.limit,
  );
  return items.slice(page.offset).map((item) => ({
    auditClass: String(item.auditClass),
    objectId: typeof item.objectId === 'number' ? item.objectId : String(item.objectId),
    userId: item.userId === null || item.userId === undefined ? null : Number(item.userId),
    changes: (item.changes ?? {}) as AuditEntry['changes'],
    at: new Date(String(item.at)),
  }));
}
