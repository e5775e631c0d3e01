import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../domain/instance/audit.ts';
import { toStorageTime } from '../../domain/time.ts';
import { tableName } from '../dynamoClient.ts';
import { keys } from '../keys.ts';
import { queryAll } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';

/**
 * The audit log. Entries are written inside the transaction of the change they describe; a
 * small per-class "latest" item makes `last_audit_time` one query however long the log grows.
 */
export function recordAudit(transaction: WriteTransaction, entry: AuditEntry): void {
  const at = toStorageTime(entry.at);
  transaction.put({
    ...keys.auditEntry(entry.auditClass, at, randomUUID()),
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
