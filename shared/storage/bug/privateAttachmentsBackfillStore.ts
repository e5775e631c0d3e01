import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { PrivateAttachmentMark } from '../../domain/bug/bug.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { bugKeys, keys } from '../keys.ts';

/**
 * The one-time backfill of `privateAttachments` on bug items stored before bugs listed their
 * private attachments (application/bug/privateActivityBackfill.ts; docs/data-model.md §3): the
 * scan that finds them, the conditional write, and its progress on the installation item.
 */

/** Table items a scan page reads at most (before its filter): a page stays well under a second. */
const SCAN_PAGE_ITEMS = 2_000;

export type ScanCursor = Record<string, unknown>;

/**
 * Bug items that have attachments and no list, one Scan page from `cursor` on (eventually
 * consistent: each bug found is read again, consistently, before anything is written). Only the
 * ids travel; the scan itself reads every item of the table once over all pages.
 */
export async function scanBugsWithoutPrivateAttachments(
  cursor: ScanCursor | undefined,
): Promise<{ bugIds: number[]; next: ScanCursor | undefined }> {
  const page = await documentClient().send(
    new ScanCommand({
      TableName: tableName(),
      FilterExpression: '#type = :bug AND attachmentCount > :none AND attribute_not_exists(privateAttachments)',
      ProjectionExpression: 'id',
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: { ':bug': 'bug', ':none': 0 },
      ExclusiveStartKey: cursor,
      Limit: SCAN_PAGE_ITEMS,
    }),
  );
  return { bugIds: (page.Items ?? []).map((item) => Number(item.id)), next: page.LastEvaluatedKey };
}

/**
 * Stores a bug's list, derived from its attachments as they were at revision `rev`, only if the
 * item is still at that revision and still has no list: a bug write since (which stores the list
 * itself, or changed the attachments) wins, and this one is dropped (false). The revision is not
 * raised: the bug did not change, it now says what its attachments said already.
 */
export async function storePrivateAttachments(
  bugId: number,
  rev: number,
  marks: readonly PrivateAttachmentMark[],
): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: bugKeys.bug(bugId),
        UpdateExpression: 'SET privateAttachments = :marks',
        ConditionExpression: `attribute_not_exists(privateAttachments) AND ${rev > 0 ? 'rev = :rev' : 'attribute_exists(pk) AND attribute_not_exists(rev)'}`,
        ExpressionAttributeValues: { ':marks': marks, ...(rev > 0 ? { ':rev': rev } : {}) },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Where the backfill stands: finished, or the scan position to go on from (none: from the start). */
export type BackfillState = { done: true } | { done: false; cursor: ScanCursor | undefined };

const STATE_ATTRIBUTE = 'privateAttachmentsBackfill';

export async function loadBackfillState(): Promise<BackfillState> {
  const item = (
    await documentClient().send(
      new GetCommand({ TableName: tableName(), Key: keys.installation(), ConsistentRead: true }),
    )
  ).Item;
  const state = item?.[STATE_ATTRIBUTE] as { done?: boolean; cursor?: ScanCursor } | undefined;
  return state?.done ? { done: true } : { done: false, cursor: state?.cursor };
}

/** Records progress on the installation item (a new installation is marked done at once: it has no old bugs). */
export async function saveBackfillState(state: BackfillState, now: Date = new Date()): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.installation(),
      UpdateExpression: 'SET #state = :state',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#state': STATE_ATTRIBUTE },
      ExpressionAttributeValues: {
        ':state': state.done
          ? { done: true, at: now.toISOString() }
          : { done: false, at: now.toISOString(), ...(state.cursor ? { cursor: state.cursor } : {}) },
      },
    }),
  );
}
