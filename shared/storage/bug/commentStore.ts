import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Attachment } from '../../domain/bug/attachment.ts';
import { errors } from '../../errors.ts';
import { oncePerRequest } from '../../runtime/requestScope.ts';
import { deepFreeze } from '../deepFreeze.ts';
import { documentClient, tableName } from '../dynamoClient.ts';
import { attachmentKeys, bugKeys } from '../keys.ts';
import { batchGetAll, queryAll, queryPartition } from '../tableReads.ts';
import { WriteTransaction } from '../transaction.ts';
import { type StoredBugItem, type StoredComment, toAttachment, toComment, toStoredBugItem } from './bugItems.ts';
import { loadComment, type StoredBug } from './bugStore.ts';
import { withValueIdsOf } from './legacyBugValues.ts';
import { withPrivateAttachments } from './legacyPrivateAttachments.ts';

/**
 * Comments found by their global id, and comment tags (docs/data-model.md §3). A comment's
 * position comes from its pointer item (`COMMENT#<id>` / `COMMENT`), read strongly consistent.
 */

/** Comments by global id (missing ids are absent). Pointers first, then the comments. */
export async function loadCommentsById(commentIds: readonly number[]): Promise<Map<number, StoredComment>> {
  const unique = [...new Set(commentIds)];
  if (unique.length === 0) return new Map();
  const pointers = await batchGetAll(
    unique.map((id) => bugKeys.commentPointer(id)),
    { consistent: true },
  );
  const comments =
    pointers.length === 1
      ? [await loadComment(Number(pointers[0].bugId), Number(pointers[0].count))].filter(
          (comment): comment is StoredComment => comment !== null,
        )
      : (
          await batchGetAll(
            pointers.map((pointer) => bugKeys.comment(Number(pointer.bugId), Number(pointer.count))),
            { consistent: true },
          )
        ).map(toComment);
  return new Map(comments.map((comment) => [comment.id, comment]));
}

/**
 * A bug with all its comments and attachment metadata in one strongly consistent Query: in the
 * bug's collection the sort keys `ATTACHMENT#…` < `BUG` < `COMMENT#…` are adjacent, so one key
 * range returns them together (a comment listing is then one read, not three).
 */
export function loadBugConversation(bugId: number): Promise<BugConversation> {
  return oncePerRequest(`conversation:${bugId}`, async () => deepFreeze(await queryBugConversation(bugId)));
}

export interface BugConversation {
  stored: StoredBug | undefined;
  comments: StoredComment[];
  attachments: Attachment[];
}

async function queryBugConversation(bugId: number): Promise<BugConversation> {
  const items = await queryAll({
    TableName: tableName(),
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': bugKeys.bug(bugId).pk,
      ':from': attachmentKeys.attachmentPrefix,
      ':to': `${bugKeys.commentPrefix}\uffff`,
    },
    ConsistentRead: true,
  });
  let stored: StoredBugItem | undefined;
  const comments: StoredComment[] = [];
  const attachments: Attachment[] = [];
  for (const item of items) {
    if (item.type === 'bug') stored = toStoredBugItem(item);
    else if (item.type === 'comment') comments.push(toComment(item));
    else if (item.type === 'attachment') attachments.push(toAttachment(item));
  }
  const withIds = await withValueIdsOf(stored);
  return {
    stored: withIds && (await withPrivateAttachments([withIds], () => attachments))[0],
    comments,
    attachments,
  };
}

/** Someone else changed the comment's tags between this request's read and its write. */
export class CommentTagsConflict extends Error {}

/**
 * Writes a comment's new tags, conditioned on the tags read, and moves the weight of each tag
 * that came or went. The weights say how many comments carry a tag; tag search lists those above 0.
 */
export async function saveCommentTags(
  comment: StoredComment,
  tags: readonly string[],
  added: readonly string[],
  removed: readonly string[],
): Promise<void> {
  const transaction = new WriteTransaction();
  transaction.update(bugKeys.comment(comment.bugId, comment.count), {
    expression: 'SET tags = :tags',
    condition: comment.tags.length === 0 ? '(attribute_not_exists(tags) OR size(tags) = :zero)' : 'tags = :read',
    values:
      comment.tags.length === 0 ? { ':tags': [...tags], ':zero': 0 } : { ':tags': [...tags], ':read': comment.tags },
    onConditionFailed: () => new CommentTagsConflict(),
  });
  for (const tag of added) {
    transaction.update(attachmentKeys.commentTag(tag), {
      expression: 'SET #name = if_not_exists(#name, :name), #type = :type ADD weight :one',
      names: { '#name': 'name', '#type': 'type' },
      values: { ':name': tag, ':type': 'commentTag', ':one': 1 },
    });
  }
  for (const tag of removed) {
    transaction.update(attachmentKeys.commentTag(tag), { expression: 'ADD weight :minus', values: { ':minus': -1 } });
  }
  await transaction.commit();
  // A tag no comment carries any more leaves the search; the condition keeps one that was just reused.
  await Promise.all(
    removed.map((tag) =>
      documentClient()
        .send(
          new DeleteCommand({
            TableName: tableName(),
            Key: attachmentKeys.commentTag(tag),
            ConditionExpression: 'weight <= :zero',
            ExpressionAttributeValues: { ':zero': 0 },
          }),
        )
        .catch((error: unknown) => {
          if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
        }),
    ),
  );
}

/** Tags in use whose name contains the text, case-insensitively, sorted, at most `limit`. */
export async function searchCommentTags(text: string, limit: number): Promise<string[]> {
  const needle = text.toLowerCase();
  const items = await queryPartition(attachmentKeys.commentTagsPartition);
  return items
    .filter((item) => Number(item.weight ?? 0) > 0 && String(item.sk).includes(needle))
    .map((item) => String(item.name ?? item.sk))
    .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
    .slice(0, limit);
}

export const tagConflict = () =>
  errors.invalidParameter(
    'The tags of this comment were changed by someone else at this very moment. Nothing was saved; please try again.',
  );
