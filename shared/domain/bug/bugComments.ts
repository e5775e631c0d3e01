import { errors } from '../../errors.ts';
import type { Caller } from '../identity/caller.ts';
import { truthy } from '../inputValues.ts';
import type { Parameters } from '../instance/parameters.ts';
import type { HistoryChange, NewComment } from './bug.ts';
import { isInsider } from './bugAccess.ts';

/**
 * Comment text as Bugzilla shows it: what the user wrote, plus Bugzilla's generated wording for
 * its special comments (duplicate notices), and who may read private comments (the insiders).
 */
export function commentText(
  comment: Pick<NewComment, 'rawText' | 'commentType' | 'extraData'>,
  attachmentSummary: (attachmentId: number) => string | undefined = () => undefined,
): string {
  switch (comment.commentType) {
    // The attachment's summary is read when the comment is shown, so a later change of summary
    // shows in the comment too, as Bugzilla 5.2 does.
    case 'attachment_created': {
      const heading = `Created attachment ${comment.extraData}\n${attachmentSummary(comment.extraData ?? 0) ?? ''}`;
      return comment.rawText.trim() === '' ? heading : `${heading}\n\n${comment.rawText}`;
    }
    case 'attachment_updated':
      return `Comment on attachment ${comment.extraData}\n${attachmentSummary(comment.extraData ?? 0) ?? ''}\n\n${comment.rawText}`;
    case 'dupe_of': {
      const notice = `*** This bug has been marked as a duplicate of bug ${comment.extraData} ***`;
      return comment.rawText.trim() === '' ? notice : `${comment.rawText}\n\n${notice}`;
    }
    case 'has_dupe': {
      const notice = `*** Bug ${comment.extraData} has been marked as a duplicate of this bug. ***`;
      return comment.rawText.trim() === '' ? notice : `${comment.rawText}\n\n${notice}`;
    }
    default:
      return comment.rawText;
  }
}

export const mayReadComment = (
  caller: Caller,
  parameters: Parameters,
  comment: Pick<NewComment, 'isPrivate' | 'creatorId'>,
): boolean => !comment.isPrivate || isInsider(caller, parameters);

/**
 * Bug update's `comment_is_private`: `{ "<comment id>": true|false }` changes the privacy of
 * comments already on the bug (a boolean instead is the privacy of the update's new comment, see
 * bugUpdate.ts). Every id must be a comment of this bug (111); only insiders may change one (113).
 * Each change is a `longdescs.isprivate` history entry naming the comment, as in Bugzilla 5.2.
 */
export function requestedCommentPrivacy(value: unknown): Map<number, boolean> | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const requested = new Map<number, boolean>();
  for (const [key, flag] of Object.entries(value as Record<string, unknown>)) {
    const id = Number(key);
    if (!/^\d+$/.test(key.trim()) || !Number.isSafeInteger(id) || id <= 0) throw errors.commentNotFound(key);
    requested.set(id, truthy(flag));
  }
  return requested;
}

export interface CommentPrivacyChange {
  count: number;
  isPrivate: boolean;
}

export function planCommentPrivacy(
  caller: Caller,
  parameters: Parameters,
  bugId: number,
  comments: ReadonlyArray<Pick<NewComment, 'isPrivate'> & { id: number; count: number }>,
  requested: ReadonlyMap<number, boolean>,
): { changes: CommentPrivacyChange[]; history: HistoryChange[]; privateDelta: number } {
  const byId = new Map(comments.map((comment) => [comment.id, comment]));
  const changes: CommentPrivacyChange[] = [];
  const history: HistoryChange[] = [];
  for (const [id, isPrivate] of requested) {
    const comment = byId.get(id);
    if (!comment) throw errors.invalidCommentId(`Comment ${id} is not a comment of bug ${bugId}.`);
    if (comment.isPrivate === isPrivate) continue;
    if (!isInsider(caller, parameters))
      throw errors.notInsider('You are not allowed to change the privacy of comments.');
    changes.push({ count: comment.count, isPrivate });
    history.push({
      field_name: 'longdescs.isprivate',
      removed: comment.isPrivate ? '1' : '0',
      added: isPrivate ? '1' : '0',
      comment_id: id,
      comment_count: comment.count,
    });
  }
  return { changes, history, privateDelta: changes.reduce((sum, change) => sum + (change.isPrivate ? 1 : -1), 0) };
}
