import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment } from '../../domain/bug/attachment.ts';
import { errors } from '../../errors.ts';
import { oncePerRequest } from '../../runtime/requestScope.ts';
import { deepFreeze } from '../deepFreeze.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { attachmentKeys, bugKeys } from '../keys.ts';
import { batchGetAll, queryAll } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';
import { toAttachment, toStoredBugItem } from './bugItems.ts';
import type { StoredBug } from './bugStore.ts';
import { withValueIdsOf } from './legacyBugValues.ts';
import { withPrivateAttachments, withPrivateAttachmentsOf } from './legacyPrivateAttachments.ts';

/**
 * Attachments: metadata items in the bug's collection (`BUG#<bug>` / `ATTACHMENT#<id10>`, flags
 * inside), a pointer per id (`ATTACHMENT#<id>` / `ATTACHMENT`), and the body in S3 under
 * `attachments/<bug>/<id>` (attachmentBodies.ts). The body is always written before the metadata
 * and never removed while metadata points at it, so no metadata ever names a missing body
 * (docs/data-model.md §3).
 */

/** The `type` of a pointer item that is the orphan sweep's claim (claimOrphanBody), not an attachment's. */
const SWEPT_BODY = 'sweptAttachmentBody';

/** Every attachment of a bug, in id order (strongly consistent). */
export async function loadAttachmentsOfBug(bugId: number): Promise<Attachment[]> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': bugKeys.bug(bugId).pk, ':prefix': attachmentKeys.attachmentPrefix },
    ConsistentRead: true,
  });
  return items.map(toAttachment);
}

/**
 * A bug with its attachments in one strongly consistent Query: `ATTACHMENT#…` sorts right before
 * `BUG` in the bug's collection, so one key range holds both.
 */
export function loadBugWithAttachments(
  bugId: number,
): Promise<{ stored: StoredBug | undefined; attachments: Attachment[] }> {
  return oncePerRequest(`bugWithAttachments:${bugId}`, async () => deepFreeze(await queryBugWithAttachments(bugId)));
}

async function queryBugWithAttachments(
  bugId: number,
): Promise<{ stored: StoredBug | undefined; attachments: Attachment[] }> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': bugKeys.bug(bugId).pk,
      ':from': attachmentKeys.attachmentPrefix,
      ':to': bugKeys.bug(bugId).sk,
    },
    ConsistentRead: true,
  });
  const bugItem = items.find((item) => item.type === 'bug');
  const attachments = items.filter((item) => item.type === 'attachment').map(toAttachment);
  const stored = bugItem ? await withValueIdsOf(toStoredBugItem(bugItem)) : undefined;
  // The bug's attachments are all here: a bug stored without its list of private ones gets it from them.
  return { stored: stored && (await withPrivateAttachments([stored], () => attachments))[0], attachments };
}

/**
 * One attachment by id with its bug: the pointer, then one Query from `ATTACHMENT#<id10>` to
 * `BUG` (the attachment, any later ones of the bug, and the bug item): two round trips, not three.
 */
export async function loadAttachmentWithBug(
  attachmentId: number,
): Promise<{ attachment: Attachment; stored: StoredBug | undefined } | undefined> {
  const pointer = (
    await documentClient().send(
      new GetCommand({
        TableName: tableName(),
        Key: attachmentKeys.attachmentPointer(attachmentId),
        ConsistentRead: true,
      }),
    )
  ).Item;
  if (!pointer || pointer.type === SWEPT_BODY) return undefined;
  const bugId = Number(pointer.bugId);
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': bugKeys.bug(bugId).pk,
      ':from': attachmentKeys.attachment(bugId, attachmentId).sk,
      ':to': bugKeys.bug(bugId).sk,
    },
    ConsistentRead: true,
  });
  const item = items.find((candidate) => candidate.type === 'attachment' && Number(candidate.id) === attachmentId);
  if (!item) return undefined;
  const bugItem = items.find((candidate) => candidate.type === 'bug');
  return {
    attachment: toAttachment(item),
    stored: bugItem ? await withPrivateAttachmentsOf(await withValueIdsOf(toStoredBugItem(bugItem))) : undefined,
  };
}

/** The summaries of a bug's attachments, for the "Created attachment N" comments. */
export async function attachmentSummaries(bugId: number): Promise<Map<number, string>> {
  return new Map((await loadAttachmentsOfBug(bugId)).map((attachment) => [attachment.id, attachment.summary]));
}

/** Attachments by id, wherever they are: pointers first, then the items (both consistent). */
export async function loadAttachmentsById(attachmentIds: readonly number[]): Promise<Map<number, Attachment>> {
  const unique = [...new Set(attachmentIds)];
  if (unique.length === 0) return new Map();
  const pointers =
    unique.length === 1
      ? [
          (
            await documentClient().send(
              new GetCommand({
                TableName: tableName(),
                Key: attachmentKeys.attachmentPointer(unique[0]),
                ConsistentRead: true,
              }),
            )
          ).Item,
        ].filter((item) => item !== undefined)
      : await batchGetAll(
          unique.map((id) => attachmentKeys.attachmentPointer(id)),
          { consistent: true },
        );
  const located = pointers
    .filter((pointer) => pointer.type !== SWEPT_BODY)
    .map((pointer) => ({ id: Number(pointer.attachmentId), bugId: Number(pointer.bugId) }));
  if (located.length === 0) return new Map();
  const items =
    located.length === 1
      ? [
          (
            await documentClient().send(
              new GetCommand({
                TableName: tableName(),
                Key: attachmentKeys.attachment(located[0].bugId, located[0].id),
                ConsistentRead: true,
              }),
            )
          ).Item,
        ].filter((item) => item !== undefined)
      : await batchGetAll(
          located.map(({ bugId, id }) => attachmentKeys.attachment(bugId, id)),
          { consistent: true },
        );
  return new Map(
    items.map((item) => {
      const attachment = toAttachment(item);
      return [attachment.id, attachment];
    }),
  );
}

/** Adds a new attachment (metadata and pointer) to a bug write's transaction. */
export function putNewAttachment(transaction: WriteTransaction, attachment: Attachment): void {
  transaction.putNew(
    { ...attachmentKeys.attachment(attachment.bugId, attachment.id), type: 'attachment', ...attachment },
    () => new Error(`Attachment ${attachment.id} already exists.`),
  );
  // Ids are never reused, so the pointer is taken only by the orphan sweep's claim
  // (claimOrphanBody): this upload outlasted the sweep's age limit and its body is gone.
  transaction.putNew(
    {
      ...attachmentKeys.attachmentPointer(attachment.id),
      type: 'attachmentPointer',
      attachmentId: attachment.id,
      bugId: attachment.bugId,
    },
    () =>
      errors.invalidParameter(
        'The upload took too long and its file was cleared away before it was saved. Nothing was saved; please send it again.',
      ),
  );
}

/**
 * Rewrites an attachment's metadata. It needs no condition of its own: it is always written with
 * its bug, whose revision condition fails the whole transaction if anything changed meanwhile.
 */
export function putChangedAttachment(transaction: WriteTransaction, attachment: Attachment): void {
  transaction.put({ ...attachmentKeys.attachment(attachment.bugId, attachment.id), type: 'attachment', ...attachment });
}

/** Sets a comment's privacy (the "Created attachment" comment follows its attachment's). */
export function setCommentPrivacy(
  transaction: WriteTransaction,
  bugId: number,
  count: number,
  isPrivate: boolean,
): void {
  transaction.update(bugKeys.comment(bugId, count), {
    expression: 'SET isPrivate = :private',
    condition: 'attribute_exists(pk)',
    values: { ':private': isPrivate },
  });
}

/**
 * The orphan sweep's claim on a body's attachment id, before it deletes the body: the id's pointer
 * item, put only where none exists (or a claim of an earlier sweep that did not finish). A claim
 * and an upload's metadata take the same key with `attribute_not_exists`, so exactly one of them
 * lands: either the metadata landed first (false: the body stays) or the claim did, and the
 * upload's transaction fails as a whole (putNewAttachment) instead of saving metadata whose body
 * is being deleted. The claim expires after a week, long after any upload could still commit.
 */
export async function claimOrphanBody(attachmentId: number, bodyKey: string, now: Date): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...attachmentKeys.attachmentPointer(attachmentId),
          type: SWEPT_BODY,
          bodyKey,
          sweptAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + 7 * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR #type = :swept',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':swept': SWEPT_BODY },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}

/** Whether metadata refers to an attachment id (the sweep's question; a sweep's claim is not metadata). */
export async function existingAttachmentIds(attachmentIds: readonly number[]): Promise<Set<number>> {
  if (attachmentIds.length === 0) return new Set();
  const pointers = await batchGetAll(
    attachmentIds.map((id) => attachmentKeys.attachmentPointer(id)),
    { consistent: true },
  );
  return new Set(
    pointers.filter((pointer) => pointer.type !== SWEPT_BODY).map((pointer) => Number(pointer.attachmentId)),
  );
}
