import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import { errors } from '../../errors.ts';
import { oncePerRequest } from '../../runtime/requestScope.ts';
import { deepFreeze } from '../deepFreeze.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { readItem, readItems } from '../itemReads.ts';
import { bugKeys } from '../keys.ts';
import { addChangeLogEntries } from '../search/searchIndexStore.ts';
import { queryAll } from '../tableReads.ts';
import { WriteTransaction } from '../transaction.ts';
import { type StoredComment, toComment, toStoredBugItem } from './bugItems.ts';
import { withValueIds, withValueIdsOf } from './legacyBugValues.ts';
import { withPrivateAttachments, withPrivateAttachmentsOf } from './legacyPrivateAttachments.ts';

/**
 * Bugs, their comments and history, alias guards and last visits (docs/data-model.md §3). Every
 * bug read is strongly consistent, so a bug is readable and updatable by the very next request
 * after it was written; every bug write is one transaction conditioned on the revision it read
 * (WriteTransaction's putAtRevision: a lost race throws RevisionConflict, and the caller starts over
 * from a fresh read with retryOnConflict).
 */
export interface StoredBug {
  bug: Bug;
  /** Raised by every write; a write conditioned on a stale revision fails as a whole. */
  rev: number;
}

export type { StoredComment } from './bugItems.ts';

const bugItem = (bug: Bug, rev: number) => ({
  ...bugKeys.bug(bug.id),
  ...bugKeys.componentIndex(bug.componentId, bug.id),
  type: 'bug',
  ...bug,
  rev,
});

export async function loadBug(bugId: number): Promise<StoredBug | null> {
  const item = await readItem(bugKeys.bug(bugId));
  return item ? ((await withPrivateAttachmentsOf(await withValueIdsOf(toStoredBugItem(item)))) ?? null) : null;
}

/** Bugs by id (strongly consistent); missing ids are absent from the map. */
export async function loadBugs(bugIds: readonly number[]): Promise<Map<number, StoredBug>> {
  const items = await readItems([...new Set(bugIds)].map((id) => bugKeys.bug(id)));
  const stored = await withPrivateAttachments(await withValueIds(items.map(toStoredBugItem)));
  return new Map(stored.map((entry) => [entry.bug.id, entry]));
}

export async function findBugIdByAlias(alias: string): Promise<number | null> {
  const item = await readItem(bugKeys.aliasGuard(alias));
  return item ? Number(item.bugId) : null;
}

export interface BugWrite {
  created: Bug[];
  updated: Array<{ bug: Bug; rev: number; previousAlias: string | null }>;
  comments: StoredComment[];
  history: HistoryEntry[];
  /** Bugs read to prove a change safe (a dependency walk) that must not have changed meanwhile. */
  unchanged?: Array<{ bugId: number; rev: number }>;
  /**
   * Bugs whose comments' privacy this write changes, with every comment they will have (the new
   * ones included): the search index replaces their comment words (searchIndexStore.ts).
   */
  allComments?: ReadonlyMap<number, ReadonlyArray<{ rawText: string; isPrivate: boolean }>>;
  /** More items of the same change (attachments, their comments' privacy), written in the same transaction. */
  extend?: (transaction: WriteTransaction) => void;
}

const aliasTaken = (alias: string) => () =>
  errors.invalidAlias(`The alias '${alias}' is already in use by another bug.`);

/** One transaction for a whole bug change: the bugs, their alias guards, comments, history and search change log. */
export async function commitBugWrite(write: BugWrite): Promise<void> {
  const transaction = new WriteTransaction();
  for (const bug of write.created) {
    transaction.putNew(bugItem(bug, 1), () => errors.invalidParameter(`Bug ${bug.id} already exists.`));
    if (bug.alias) transaction.putNew({ ...bugKeys.aliasGuard(bug.alias), bugId: bug.id }, aliasTaken(bug.alias));
  }
  for (const { bug, rev, previousAlias } of write.updated) {
    transaction.putAtRevision(bugItem(bug, rev), rev);
    if ((previousAlias ?? '').toLowerCase() !== (bug.alias ?? '').toLowerCase()) {
      if (previousAlias) transaction.delete(bugKeys.aliasGuard(previousAlias));
      if (bug.alias) transaction.putNew({ ...bugKeys.aliasGuard(bug.alias), bugId: bug.id }, aliasTaken(bug.alias));
    }
  }
  for (const { bugId, rev } of write.unchanged ?? []) {
    transaction.checkAtRevision(bugKeys.bug(bugId), rev);
  }
  for (const comment of write.comments) {
    transaction.put({ ...bugKeys.comment(comment.bugId, comment.count), type: 'comment', ...comment });
    transaction.put({
      ...bugKeys.commentPointer(comment.id),
      type: 'commentPointer',
      bugId: comment.bugId,
      count: comment.count,
    });
  }
  // Each history entry carries the revision its write gave the bug: the notification publisher
  // pairs it with the bug's change by that (shared/storage/notification/bugChangeRecords.ts).
  const revisionAfter = new Map([
    ...write.created.map((bug) => [bug.id, 1] as const),
    ...write.updated.map(({ bug, rev }) => [bug.id, rev + 1] as const),
  ]);
  for (const entry of write.history) {
    transaction.put({
      ...bugKeys.history(entry.bugId, new Date().toISOString(), randomUUID().slice(0, 8)),
      type: 'history',
      ...entry,
      rev: revisionAfter.get(entry.bugId),
    });
  }
  write.extend?.(transaction);
  // The search index's change log, in the same transaction: a search that follows this write
  // (from any function instance) finds the bugs as they are now (docs/data-model.md §8.7).
  addChangeLogEntries(
    transaction,
    [...write.created.map((bug) => ({ bug, rev: 1 })), ...write.updated.map(({ bug, rev }) => ({ bug, rev: rev + 1 }))],
    write.history,
    write.comments,
    write.allComments,
  );
  await transaction.commit();
}

/** Every comment of a bug in order (the description is count 0). */
export async function loadComments(bugId: number): Promise<StoredComment[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bugKeys.bug(bugId).pk, ':prefix': bugKeys.commentPrefix },
    ConsistentRead: true,
  });
  return items.map(toComment);
}

export async function loadComment(bugId: number, count: number): Promise<StoredComment | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: bugKeys.comment(bugId, count), ConsistentRead: true }),
  );
  return result.Item ? toComment(result.Item) : null;
}

/** A bug's history entries in time order (read once per request: requestScope.ts). */
export function loadHistory(bugId: number): Promise<HistoryEntry[]> {
  return oncePerRequest(`history:${bugId}`, async () => deepFreeze(await queryHistory(bugId)));
}

async function queryHistory(bugId: number): Promise<HistoryEntry[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bugKeys.bug(bugId).pk, ':prefix': bugKeys.historyPrefix },
    ConsistentRead: true,
  });
  return items.map((item) => ({
    bugId: Number(item.bugId),
    when: String(item.when),
    whoId: Number(item.whoId),
    changes: item.changes as HistoryEntry['changes'],
  }));
}

// ---- last visits ----------------------------------------------------------------------------

export interface LastVisit {
  bugId: number;
  lastVisitTs: string;
  expiresAt: number;
}

export async function putLastVisits(userId: number, visits: readonly LastVisit[]): Promise<void> {
  await Promise.all(
    visits.map((visit) =>
      documentClient().send(
        new PutCommand({
          TableName: tableName(),
          Item: { ...bugKeys.lastVisit(userId, visit.bugId), type: 'lastVisit', userId, ...visit },
        }),
      ),
    ),
  );
}

/** Every last visit the user has stored (bounded by the retention period and TTL). */
export async function loadLastVisits(userId: number): Promise<LastVisit[]> {
  const result = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bugKeys.lastVisit(userId, 0).pk, ':prefix': bugKeys.lastVisitPrefix },
    ConsistentRead: true,
  });
  return result.map((item) => ({
    bugId: Number(item.bugId),
    lastVisitTs: String(item.lastVisitTs),
    expiresAt: Number(item.expiresAt),
  }));
}

/**
 * Every bug with its revision, read page by page: a full scan. Only the search snapshot's
 * recovery tool uses it (searchCompactor.ts); searches never scan (docs/data-model.md §8.7).
 */
export async function scanAllBugs(): Promise<StoredBug[]> {
  const bugs: StoredBug[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#type = :bug',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':bug': 'bug' },
        ExclusiveStartKey: startKey,
        ConsistentRead: true,
      }),
    );
    bugs.push(...(await withValueIds((page.Items ?? []).map(toStoredBugItem))));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return bugs;
}

/**
 * The items of a bug written by a bulk loader (bench/seed.ts) rather than a request: the bug,
 * its alias guard, comments with their pointers, and history. Loaders must also write a search
 * snapshot holding these bugs, since bulk writes bypass the change log (searchIndexStore.ts).
 */
export function bulkBugItems(
  bug: Bug,
  comments: readonly StoredComment[],
  history: readonly HistoryEntry[],
): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [bugItem(bug, 1)];
  if (bug.alias) items.push({ ...bugKeys.aliasGuard(bug.alias), bugId: bug.id });
  for (const comment of comments) {
    items.push({ ...bugKeys.comment(comment.bugId, comment.count), type: 'comment', ...comment });
    items.push({
      ...bugKeys.commentPointer(comment.id),
      type: 'commentPointer',
      bugId: comment.bugId,
      count: comment.count,
    });
  }
  history.forEach((entry, position) => {
    items.push({
      ...bugKeys.history(entry.bugId, `${entry.when.replace('Z', '')}.000Z`, String(position).padStart(8, '0')),
      type: 'history',
      ...entry,
    });
  });
  return items;
}
