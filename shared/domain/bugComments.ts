import type { NewComment } from './bug.ts';
import { isInsider } from './bugAccess.ts';
import type { Caller } from './caller.ts';
import type { Parameters } from './parameters.ts';

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

export const mayReadComment = (caller: Caller, parameters: Parameters, comment: Pick<NewComment, 'isPrivate' | 'creatorId'>): boolean =>
  !comment.isPrivate || isInsider(caller, parameters);
