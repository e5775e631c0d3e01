import type { NewComment } from './bug.ts';
import { isInsider } from './bugAccess.ts';
import type { Caller } from './caller.ts';
import type { Parameters } from './parameters.ts';

/**
 * Comment text as Bugzilla shows it: what the user wrote, plus Bugzilla's generated wording for
 * its special comments (duplicate notices), and who may read private comments (the insiders).
 */
export function commentText(comment: Pick<NewComment, 'rawText' | 'commentType' | 'extraData'>): string {
  switch (comment.commentType) {
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
