import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment } from '../../domain/bug/attachment.ts';
import type { Bug, HistoryEntry } from '../../domain/bug/bug.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { collectItems, type Item } from '../itemCollector.ts';
import { attachmentKeys, bugKeys, type ItemKey } from '../keys.ts';
import { addChangeLogEntries } from '../search/searchIndexStore.ts';
import { batchGetAll, queryAll } from '../tableReads.ts';
import { putNewAttachment } from './attachmentStore.ts';
import { bulkBugItems, type StoredComment } from './bugStore.ts';

/**
 * Bugs as an import writes them (local/import): the same items a request writes, with the
 * source's ids and times, put in bulk; and what a later run of the same import must know of a
 * bug it writes again (its revision, alias and items), so a rerun replaces instead of adding.
 */

/**
 * Every item of one bug: the bug, alias guard, comments and pointers, history, attachments and
 * pointers. The bug item carries `importRev`, the revision the import gave it: any write through
 * the API puts the whole item again without it (toStoredBug leaves it out), so a bug whose item
 * lacks it, or holds another revision, was changed on the target since the import wrote it.
 */
export function importedBugItems(
  bug: Bug,
  rev: number,
  comments: readonly StoredComment[],
  history: readonly HistoryEntry[],
  attachments: readonly Attachment[],
): Item[] {
  const items = bulkBugItems(bug, comments, history) as Item[];
  items[0] = { ...items[0], rev, importRev: rev };
  items.push(
    ...collectItems((transaction) => {
      for (const attachment of attachments) putNewAttachment(transaction, attachment);
    }),
  );
  return items;
}

/** Change-log entries for bugs written in bulk, so running search instances see them (searchIndexStore.ts). */
export function importedChangeLogItems(
  bugs: ReadonlyArray<{ bug: Bug; rev: number }>,
  history: readonly HistoryEntry[],
  comments: ReadonlyArray<{ bugId: number; rawText: string; isPrivate: boolean }>,
): Item[] {
  const whole = new Map<number, Array<{ rawText: string; isPrivate: boolean }>>();
  for (const { bug } of bugs) whole.set(bug.id, []);
  for (const comment of comments) whole.get(comment.bugId)?.push(comment);
  return collectItems((transaction) => addChangeLogEntries(transaction, bugs, history, [], whole));
}

export interface ExistingBug {
  rev: number;
  alias: string | null;
  /** Keys of the items of its collection (bug, comments, history, attachments). */
  itemKeys: ItemKey[];
  /** Tags of its comments, by comment id. */
  commentTags: Map<number, string[]>;
  /** Personal tags, by the id of the user they belong to. */
  personalTags: Record<string, string[]>;
}

/** What the table holds of a bug written before (null: nothing): one strongly consistent Query. */
export async function loadExistingBug(bugId: number): Promise<ExistingBug | null> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': bugKeys.bug(bugId).pk },
    ConsistentRead: true,
  });
  const bug = items.find((item) => item.type === 'bug');
  if (!bug && items.length === 0) return null;
  return {
    rev: Number(bug?.rev ?? 0),
    alias: bug?.alias ? String(bug.alias) : null,
    itemKeys: items
      .filter((item) => ['bug', 'comment', 'history', 'attachment'].includes(String(item.type)))
      .map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    commentTags: new Map(
      items
        .filter((item) => item.type === 'comment')
        .map((item) => [Number(item.id), (item.tags as string[] | undefined) ?? []]),
    ),
    personalTags: (bug?.tags as Record<string, string[]> | undefined) ?? {},
  };
}

/** A bug's revision, and the one the import wrote (null: the item holds no mark). */
export interface ImportMark {
  rev: number;
  importRev: number | null;
}

/** The import marks of the bugs that exist on the target, by id (BatchGetItem, 100 keys a call). */
export async function loadImportMarks(bugIds: readonly number[]): Promise<Map<number, ImportMark>> {
  const items = await batchGetAll(
    bugIds.map((id) => bugKeys.bug(id)),
    { consistent: true },
  );
  return new Map(
    items
      .filter((item) => item.type === 'bug')
      .map((item) => [
        Number(item.id),
        { rev: Number(item.rev ?? 0), importRev: item.importRev === undefined ? null : Number(item.importRev) },
      ]),
  );
}

/** The alias guard a bug no longer holds. */
export const aliasGuardKey = (alias: string): ItemKey => bugKeys.aliasGuard(alias);

/** The S3 key of an imported attachment's body. */
export const importedBodyKey = (bugId: number, attachmentId: number): string =>
  attachmentKeys.bodyKey(bugId, attachmentId);

/**
 * Moves comment tags' weights (how many comments carry each: commentStore.ts) by the tags an
 * import added or removed. One update per tag.
 */
export async function addCommentTagWeights(deltas: ReadonlyMap<string, number>): Promise<void> {
  await Promise.all(
    [...deltas].map(async ([tag, delta]) => {
      if (delta === 0) return;
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: attachmentKeys.commentTag(tag),
          UpdateExpression: 'SET #name = if_not_exists(#name, :name), #type = :type ADD weight :delta',
          ExpressionAttributeNames: { '#name': 'name', '#type': 'type' },
          ExpressionAttributeValues: { ':name': tag, ':type': 'commentTag', ':delta': delta },
        }),
      );
    }),
  );
}

/** Sets the `duplicates` of a bug written before (sources that do not list them: 5.0, 5.2). */
export async function setBugDuplicates(bugId: number, duplicates: readonly number[]): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: bugKeys.bug(bugId),
      UpdateExpression: 'SET duplicates = :duplicates',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':duplicates': [...duplicates] },
    }),
  );
}
