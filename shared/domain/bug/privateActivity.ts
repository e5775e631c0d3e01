import type { Caller } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import { maySeeAttachment } from './attachment.ts';
import type { Bug, HistoryChange, PrivateAttachmentMark } from './bug.ts';
import { isInsider, isTimeTracker } from './bugAccess.ts';

/**
 * What the activity of a bug tells a caller outside the insider group about its private
 * attachments and comments (docs/data-model.md §3, "What an outsider learns"). As in Bugzilla 5.2
 * (`Bug::get_activity`, `Search::_changed_security_check`):
 *
 * - a change that names an attachment (its summary, file name, flags, privacy, ...) is hidden
 *   while that attachment is private, judged by its privacy *now*, not when the change was made;
 * - a change of a comment's privacy is hidden (Bugzilla hides the ones that made a comment
 *   private; Tracker hides both directions: knowing whether the comment is private now would mean
 *   reading every comment, and who made which comment public or private is insiders' business);
 * - time-tracking changes are for the time-tracking group.
 *
 * The same rule serves history (GET /rest/bug/{id}/history, Get Bug's `history`, search pages)
 * and the history criteria of search (changedby/from/to/before/after, chfield), so a change an
 * outsider cannot read is not one they can find a bug by either.
 */

/** Bugzilla's TIMETRACKING_FIELDS as its history and its search name them (`actual_time` is `work_time`). */
const TIME_TRACKING_FIELDS: ReadonlySet<string> = new Set([
  'estimated_time',
  'remaining_time',
  'deadline',
  'work_time',
]);

/** A field only the time-tracking group may see, search by, or find changes of. */
export const isTimeTrackingField = (field: string): boolean => TIME_TRACKING_FIELDS.has(field);

const NO_MARKS: readonly PrivateAttachmentMark[] = Object.freeze([]);

/**
 * The bug's private attachments, or undefined when the bug does not say. Bug items stored before
 * bugs listed them have no `privateAttachments`: a bug without attachments has none, but one with
 * attachments is unknown until its list is derived from its attachment items (storage does that
 * on read, storage/bug/legacyPrivateAttachments.ts) or backfilled (privateActivityBackfill.ts).
 * Callers treat unknown as "every attachment may be private".
 */
export const knownPrivateAttachments = (
  bug: Pick<Bug, 'privateAttachments'> & { attachmentCount?: number },
): readonly PrivateAttachmentMark[] | undefined =>
  bug.privateAttachments ?? ((bug.attachmentCount ?? 0) > 0 ? undefined : NO_MARKS);

/** The marks of a bug's attachments that are private, in id order. */
export const privateAttachmentMarks = (
  attachments: ReadonlyArray<{ id: number; creatorId: number; isPrivate: boolean }>,
): PrivateAttachmentMark[] =>
  attachments
    .filter((attachment) => attachment.isPrivate)
    .map(({ id, creatorId }) => ({ id, creatorId }))
    .sort((a, b) => a.id - b.id);

/** Who is looking at a bug's activity: what of it they may see depends on nothing else about them. */
export interface ActivityViewer {
  insider: boolean;
  timeTracker: boolean;
}

export const activityViewer = (caller: Caller, parameters: Parameters): ActivityViewer => ({
  insider: isInsider(caller, parameters),
  timeTracker: isTimeTracker(caller, parameters),
});

/**
 * A change only insiders may see or search by: about a private attachment, or about a comment's
 * privacy. `privateAttachments` undefined means the bug's list is unknown (knownPrivateAttachments):
 * then every change that names an attachment is taken for one about a private attachment.
 */
export function isInsiderActivity(
  field: string,
  attachmentId: number | null | undefined,
  privateAttachments: readonly PrivateAttachmentMark[] | undefined,
): boolean {
  if (field === 'longdescs.isprivate') return true;
  if (attachmentId === undefined || attachmentId === null) return false;
  return privateAttachments === undefined || privateAttachments.some((mark) => mark.id === attachmentId);
}

/** Whether this viewer may see one history change of this bug. */
export function mayViewChange(
  viewer: ActivityViewer,
  bug: Pick<Bug, 'privateAttachments'> & { attachmentCount?: number },
  change: HistoryChange,
): boolean {
  if (TIME_TRACKING_FIELDS.has(change.field_name) && !viewer.timeTracker) return false;
  return viewer.insider || !isInsiderActivity(change.field_name, change.attachment_id, knownPrivateAttachments(bug));
}

/**
 * The bug after one of its attachments was created or changed: its list of private attachments
 * follows the attachment's privacy. The list stays, empty, when none is private: a bug with
 * attachments and no list is one stored before the list existed (knownPrivateAttachments). Bugs
 * come from storage with their list (derived on read where the item lacks it), so `?? []` here
 * only meets a bug without attachments.
 */
export function withAttachmentPrivacy(
  bug: Bug,
  attachment: { id: number; creatorId: number; isPrivate: boolean },
): Bug {
  const others = (bug.privateAttachments ?? []).filter((mark) => mark.id !== attachment.id);
  const marks: PrivateAttachmentMark[] = attachment.isPrivate
    ? [...others, { id: attachment.id, creatorId: attachment.creatorId }].sort((a, b) => a.id - b.id)
    : others;
  return { ...bug, privateAttachments: marks };
}

/**
 * How many private attachments of the bug this caller may not see (the attachments listing's
 * rule). A bug whose list is unknown hides all its attachments from the count of non-insiders.
 */
export function hiddenAttachmentCount(
  bug: Pick<Bug, 'privateAttachments' | 'attachmentCount'>,
  caller: Caller,
  parameters: Parameters,
): number {
  const marks = knownPrivateAttachments(bug);
  if (marks === undefined) return isInsider(caller, parameters) ? 0 : bug.attachmentCount;
  return marks.filter((mark) => !maySeeAttachment(caller, parameters, { isPrivate: true, creatorId: mark.creatorId }))
    .length;
}
