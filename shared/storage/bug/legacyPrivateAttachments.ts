import type { Bug } from '../../domain/bug/bug.ts';
import { knownPrivateAttachments, privateAttachmentMarks } from '../../domain/bug/privateActivity.ts';
import { tableName } from '../dynamoClient.ts';
import { attachmentKeys, bugKeys } from '../keys.ts';
import { queryAll } from '../tableReads.ts';

/**
 * Bug items stored before bugs listed their private attachments (`privateAttachments`,
 * privateActivity.ts) lack the list; for a bug with attachments the rules cannot tell which are
 * private. Such bugs are read with the list derived from their attachment items, so every reader
 * (history, counts, search pages) and every writer sees it, and the bug's next write stores it.
 * The backfill (application/bug/privateActivityBackfill.ts) stores it on every such item, after
 * which this costs nothing: items written since always carry the list.
 */

/** How many bugs' attachments are read at once (a search page may hold a thousand legacy bugs). */
const PARALLEL_READS = 16;

/**
 * The records with every bug's list known: derived from `attachmentsOf(bug.id)` when the caller
 * already read the bug's attachments (all of them), else from a strongly consistent Query of the
 * bug's private attachment items. Records that need nothing are returned as they are.
 */
export async function withPrivateAttachments<T extends { bug: Bug }>(
  records: T[],
  attachmentsOf?: (bugId: number) => ReadonlyArray<{ id: number; creatorId: number; isPrivate: boolean }> | undefined,
): Promise<T[]> {
  const unknown = records.filter(({ bug }) => knownPrivateAttachments(bug) === undefined);
  if (unknown.length === 0) return records;
  const derived = new Map<number, Bug['privateAttachments']>();
  for (let start = 0; start < unknown.length; start += PARALLEL_READS) {
    await Promise.all(
      unknown.slice(start, start + PARALLEL_READS).map(async ({ bug }) => {
        const attachments = attachmentsOf?.(bug.id) ?? (await privateAttachmentItems(bug.id));
        derived.set(bug.id, privateAttachmentMarks(attachments));
      }),
    );
  }
  return records.map((record) => {
    const marks = derived.get(record.bug.id);
    return marks ? { ...record, bug: { ...record.bug, privateAttachments: marks } } : record;
  });
}

/** One record, as withPrivateAttachments. */
export const withPrivateAttachmentsOf = async <T extends { bug: Bug }>(record: T | undefined): Promise<T | undefined> =>
  record && (await withPrivateAttachments([record]))[0];

/** The bug's private attachments as its attachment items say (strongly consistent). */
export async function privateAttachmentItems(
  bugId: number,
): Promise<Array<{ id: number; creatorId: number; isPrivate: boolean }>> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'isPrivate = :private',
    ProjectionExpression: 'id, creatorId, isPrivate',
    ExpressionAttributeValues: {
      ':pk': bugKeys.bug(bugId).pk,
      ':prefix': attachmentKeys.attachmentPrefix,
      ':private': true,
    },
    ConsistentRead: true,
  });
  return items.map((item) => ({ id: Number(item.id), creatorId: Number(item.creatorId), isPrivate: true }));
}
