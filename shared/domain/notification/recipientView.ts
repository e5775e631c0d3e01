import type { HistoryChange } from '../bug/bug.ts';
import { mayReadComment } from '../bug/bugComments.ts';
import { type ActivityViewer, activityViewer, mayViewChange } from '../bug/privateActivity.ts';
import type { Caller } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import { type BugChange, type ChangeComment, isEmptyComment } from './bugChange.ts';

/**
 * What of a change one person may be told: the bug's own rules, nothing new. History changes
 * as the history shows them to that person (privateActivity.ts: nothing about a private
 * attachment or a comment's privacy outside the insider group, time tracking for the
 * time-tracking group, judged by the bug as the change left it), comments as Get Comments
 * shows them (bugComments.ts: private ones for insiders), and no empty comment.
 */
export interface RecipientView {
  viewer: ActivityViewer;
  changes: HistoryChange[];
  comments: ChangeComment[];
}

export function recipientView(change: BugChange, caller: Caller, parameters: Parameters): RecipientView {
  const viewer = activityViewer(caller, parameters);
  return {
    viewer,
    changes: change.changes.filter((entry) => mayViewChange(viewer, change.after, entry)),
    comments: change.comments.filter(
      (comment) => !isEmptyComment(comment) && mayReadComment(caller, parameters, comment),
    ),
  };
}
