import type { Attachment } from '../bug/attachment.ts';
import type { Bug, BugFlag, HistoryChange, NewComment } from '../bug/bug.ts';
import type { BugNames } from '../bug/bugChanges.ts';
import type { UserAccount } from '../identity/caller.ts';

/**
 * One committed write to one bug, as everything that tells people about it sees it: bug mail,
 * EventBridge events and webhooks. A write that touches several bugs (a new dependency changes
 * both ends) is one BugChange per bug, each with that bug's own revision.
 */
export interface BugChange {
  /** The bug's revision after this write (a new bug's first is 1): with the bug id, names the write. */
  revision: number;
  whoId: number;
  /** Bugzilla wire time of the write, whole seconds. */
  when: string;
  /** The bug as it was; null when this write created it. */
  before: Bug | null;
  after: Bug;
  /** What the write changed, as Update Bug and the history report it (`attachment_id` names an attachment's). */
  changes: readonly HistoryChange[];
  /** The comments the write added, the description (count 0) of a new bug included. */
  comments: readonly ChangeComment[];
  /** The attachments the write created (before null) or changed, as they were and are. */
  attachments: readonly AttachmentChange[];
}

/** A comment as stored: its global id and its number on the bug. */
export interface ChangeComment extends NewComment {
  id: number;
  count: number;
}

/** What notifications say of an attachment: its metadata and flags, never its body. */
export type AttachmentFacts = Pick<
  Attachment,
  | 'id'
  | 'fileName'
  | 'summary'
  | 'contentType'
  | 'size'
  | 'isPatch'
  | 'isPrivate'
  | 'isObsolete'
  | 'creatorId'
  | 'creationTime'
  | 'flags'
>;

export interface AttachmentChange {
  before: AttachmentFacts | null;
  after: AttachmentFacts;
}

/** Names for the ids a notification prints, as the bug rules name them, plus people and classifications. */
export interface NotificationNames extends BugNames {
  classification(productId: number): string;
  user(id: number): Pick<UserAccount, 'id' | 'login' | 'realName'> | undefined;
}

export const bugIdOf = (change: BugChange): number => change.after.id;

export const isNewBug = (change: BugChange): boolean => change.before === null;

/** Bugzilla's identity of a person: `Real Name <login>`, or the login alone. */
export const identity = (user: Pick<UserAccount, 'login' | 'realName'> | undefined): string =>
  user === undefined ? '' : user.realName.trim() ? `${user.realName.trim()} <${user.login}>` : user.login;

/**
 * What happened to one flag, judged as Bugzilla's Flag->notify does: a flag that is now `?`
 * with a requestee it did not have is requested (a new request or one passed to someone
 * else); one that was `?` and is no longer answers that request.
 */
export type FlagAction = 'requested' | 'granted' | 'denied' | 'cleared';

export interface FlagTransition {
  action: FlagAction;
  /** The attachment the flag is on; null for the bug's own flags. */
  attachmentId: number | null;
  before: BugFlag | null;
  after: BugFlag | null;
  /** Whoever asked, when this answers or withdraws a request (the `?` flag's setter). */
  requesterId: number | null;
}

function actionOf(before: BugFlag | null, after: BugFlag | null): FlagAction | null {
  if (after === null) return before === null ? null : 'cleared';
  if (after.status === '+') return before?.status === '+' ? null : 'granted';
  if (after.status === '-') return before?.status === '-' ? null : 'denied';
  const asked = before === null || before.status !== '?' || before.requesteeId !== after.requesteeId;
  return asked ? 'requested' : null;
}

function transitionsOf(
  attachmentId: number | null,
  before: readonly BugFlag[],
  after: readonly BugFlag[],
): FlagTransition[] {
  const ids = [...new Set([...before, ...after].map((flag) => flag.id))].sort((a, b) => a - b);
  const transitions: FlagTransition[] = [];
  for (const id of ids) {
    const was = before.find((flag) => flag.id === id) ?? null;
    const now = after.find((flag) => flag.id === id) ?? null;
    const action = actionOf(was, now);
    if (action === null) continue;
    const requesterId = was?.status === '?' && action !== 'requested' ? was.setterId : null;
    transitions.push({ action, attachmentId, before: was, after: now, requesterId });
  }
  return transitions;
}

/** Every flag the change requested, granted, denied or cleared: the bug's first, then each attachment's, by id. */
export function flagTransitions(change: BugChange): FlagTransition[] {
  const attachments = [...change.attachments].sort((a, b) => a.after.id - b.after.id);
  return [
    ...transitionsOf(null, change.before?.flags ?? [], change.after.flags),
    ...attachments.flatMap(({ before, after }) => transitionsOf(after.id, before?.flags ?? [], after.flags)),
  ];
}

/**
 * Bugzilla leaves out of its mail a comment with nothing to say: no special kind and no text
 * but blanks (a bug filed without a description has one).
 */
export const isEmptyComment = (comment: Pick<NewComment, 'rawText' | 'commentType'>): boolean =>
  comment.commentType === undefined && !/\S/.test(comment.rawText);
