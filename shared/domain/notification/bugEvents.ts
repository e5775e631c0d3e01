import type { HistoryChange } from '../bug/bug.ts';
import { commentText } from '../bug/bugComments.ts';
import { type ActivityViewer, mayViewChange } from '../bug/privateActivity.ts';
import {
  type AttachmentFacts,
  type BugChange,
  bugIdOf,
  type ChangeComment,
  type FlagAction,
  type FlagTransition,
  flagTransitions,
  type NotificationNames,
} from './bugChange.ts';

/**
 * The events one bug change publishes (to EventBridge, and from there to webhooks): what kinds
 * a change yields, the detail each carries, and a key that names each event whoever it is
 * built for, so a consumer that sees one twice can drop the repeat. What an audience may read
 * follows the bug's rules: private comments and attachments are marked for an audience outside
 * the insider group, which gets their number, author and time but never their text, nor the
 * changes about them; time
 * tracking only for the time-tracking group; and a bug restricted to groups only for an
 * audience allowed restricted bugs (others learn its id and that it changed, as bmo's webhooks
 * tell them, and may fetch it with their own credentials).
 */
export const EVENT_SOURCE = 'tracker';

export type EventKind =
  | 'bug-created'
  | 'bug-changed'
  | 'comment-added'
  | 'attachment-added'
  | 'attachment-changed'
  | 'flag-requested'
  | 'flag-granted'
  | 'flag-denied'
  | 'flag-cleared';

/** EventBridge's detail-type of each kind. */
export const DETAIL_TYPES: Readonly<Record<EventKind, string>> = {
  'bug-created': 'Bug Created',
  'bug-changed': 'Bug Changed',
  'comment-added': 'Comment Added',
  'attachment-added': 'Attachment Added',
  'attachment-changed': 'Attachment Changed',
  'flag-requested': 'Flag Requested',
  'flag-granted': 'Flag Granted',
  'flag-denied': 'Flag Denied',
  'flag-cleared': 'Flag Cleared',
};

/** Who the events are built for. */
export interface EventAudience extends ActivityViewer {
  /** Whether the audience may read bugs restricted to groups. */
  restrictedBugs: boolean;
}

/** Anyone: what a logged-out caller of the API may read. The default. */
export const PUBLIC_AUDIENCE: EventAudience = Object.freeze({
  insider: false,
  timeTracker: false,
  restrictedBugs: false,
});

/** A consumer trusted with everything: insider, time tracker, every bug. */
export const FULL_AUDIENCE: EventAudience = Object.freeze({ insider: true, timeTracker: true, restrictedBugs: true });

export interface TrackerEvent {
  source: typeof EVENT_SOURCE;
  kind: EventKind;
  detailType: string;
  /** `<bug id>-<revision>-<kind>-<index>`: the same event has the same key, for every audience. */
  id: string;
  /** The change's time (Bugzilla wire time). */
  time: string;
  detail: Record<string, unknown>;
}

export interface EventContext {
  names: NotificationNames;
}

/**
 * EventBridge takes at most 256 KB an entry; a comment may be 65,535 characters of up to 4
 * bytes each. Above this, long values are cut and marked `truncated`.
 */
export const MAX_DETAIL_BYTES = 240_000;
const LONG_CHANGE_VALUE = 1_000;

const byteSize = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

function bugFacts(change: BugChange, names: NotificationNames) {
  const bug = change.after;
  return {
    id: bug.id,
    alias: bug.alias,
    summary: bug.summary,
    classification: names.classification(bug.productId),
    product: names.product(bug.productId),
    component: names.component(bug.componentId),
    status: bug.status,
    resolution: bug.resolution,
    type: bug.bugType,
    severity: bug.severity,
    priority: bug.priority,
    assigned_to: names.login(bug.assigneeId),
    creator: names.login(bug.reporterId),
    is_private: bug.groupIds.length > 0,
  };
}

function commentFacts(comment: ChangeComment, change: BugChange, context: EventContext, audience: EventAudience) {
  const attachment = change.attachments.find((entry) => entry.after.id === comment.extraData)?.after;
  const summary = (id: number) =>
    attachment && attachment.id === id && (audience.insider || !attachment.isPrivate) ? attachment.summary : undefined;
  const isAttachmentComment =
    comment.commentType === 'attachment_created' || comment.commentType === 'attachment_updated';
  return {
    id: comment.id,
    count: comment.count,
    creator: context.names.login(comment.creatorId),
    creation_time: comment.creationTime,
    is_private: comment.isPrivate,
    is_markdown: comment.isMarkdown,
    text: commentText(comment, summary),
    ...(isAttachmentComment ? { attachment_id: comment.extraData } : {}),
  };
}

/**
 * A private comment as an audience outside the insider group gets it: that it exists and who
 * wrote it when, never its text (the "marked, text omitted"; Get Bug would not even
 * count it, but a consumer keeping a mirror needs to know its numbering moved on).
 */
function redactedCommentFacts(comment: ChangeComment, context: EventContext) {
  return {
    id: comment.id,
    count: comment.count,
    creator: context.names.login(comment.creatorId),
    creation_time: comment.creationTime,
    is_private: true,
    redacted: true,
  };
}

/** A private attachment for an outsider: no name, description or type, which are its text. */
function redactedAttachmentFacts(attachment: AttachmentFacts, context: EventContext) {
  return {
    id: attachment.id,
    is_private: true,
    is_obsolete: attachment.isObsolete,
    creator: context.names.login(attachment.creatorId),
    creation_time: attachment.creationTime,
    redacted: true,
  };
}

function attachmentFacts(attachment: AttachmentFacts, context: EventContext) {
  return {
    id: attachment.id,
    file_name: attachment.fileName,
    summary: attachment.summary,
    content_type: attachment.contentType,
    size: attachment.size,
    is_patch: attachment.isPatch,
    is_private: attachment.isPrivate,
    is_obsolete: attachment.isObsolete,
    creator: context.names.login(attachment.creatorId),
    creation_time: attachment.creationTime,
  };
}

function flagFacts(transition: FlagTransition, context: EventContext) {
  const { names } = context;
  const flag = transition.after ?? transition.before!;
  return {
    id: flag.id,
    name: names.flagType(flag.typeId),
    type_id: flag.typeId,
    status: transition.after?.status ?? 'X',
    previous_status: transition.before?.status ?? null,
    setter: transition.after ? names.login(transition.after.setterId) : null,
    requestee: transition.after?.requesteeId ? names.login(transition.after.requesteeId) : null,
    requester: transition.requesterId === null ? null : names.login(transition.requesterId),
    attachment_id: transition.attachmentId,
  };
}

const FLAG_KINDS: Readonly<Record<FlagAction, EventKind>> = {
  requested: 'flag-requested',
  granted: 'flag-granted',
  denied: 'flag-denied',
  cleared: 'flag-cleared',
};

/** An event to build, before the audience decides whether and how it is told. */
interface Candidate {
  kind: EventKind;
  /** The detail beyond what every event says; undefined when nothing in it is for this audience. */
  detail(): Record<string, unknown> | undefined;
  /** For a private comment or attachment: what an audience outside the insider group is told. */
  redacted?(): Record<string, unknown> | undefined;
}

/** The events of a change in order, each kind numbered from 0 in that order. */
function candidates(change: BugChange, context: EventContext, audience: EventAudience): Candidate[] {
  const visible = (entries: readonly HistoryChange[]) =>
    entries.filter((entry) => mayViewChange(audience, change.after, entry));
  const list: Candidate[] = [];
  const description = change.comments.find((comment) => comment.count === 0);
  if (change.before === null)
    list.push({
      kind: 'bug-created',
      detail: () => ({
        ...(description
          ? {
              comment:
                audience.insider || !description.isPrivate
                  ? commentFacts(description, change, context, audience)
                  : redactedCommentFacts(description, context),
            }
          : {}),
      }),
    });
  else
    list.push({
      kind: 'bug-changed',
      detail: () => {
        const changes = visible(change.changes.filter((entry) => entry.attachment_id == null));
        return changes.length > 0 ? { changes } : undefined;
      },
    });
  for (const comment of [...change.comments].filter((entry) => entry.count > 0).sort((a, b) => a.count - b.count))
    list.push({
      kind: 'comment-added',
      detail: () => ({ comment: commentFacts(comment, change, context, audience) }),
      ...(comment.isPrivate ? { redacted: () => ({ comment: redactedCommentFacts(comment, context) }) } : {}),
    });
  const attachments = [...change.attachments].sort((a, b) => a.after.id - b.after.id);
  for (const { before, after } of attachments) {
    if (before === null)
      list.push({
        kind: 'attachment-added',
        detail: () => ({ attachment: attachmentFacts(after, context) }),
        ...(after.isPrivate ? { redacted: () => ({ attachment: redactedAttachmentFacts(after, context) }) } : {}),
      });
    else
      list.push({
        kind: 'attachment-changed',
        detail: () => {
          const changes = visible(change.changes.filter((entry) => entry.attachment_id === after.id));
          return changes.length > 0 ? { attachment: attachmentFacts(after, context), changes } : undefined;
        },
        // The changes themselves are left out: a new description or file name is the attachment's text.
        ...(after.isPrivate
          ? {
              redacted: () =>
                change.changes.some((entry) => entry.attachment_id === after.id)
                  ? { attachment: redactedAttachmentFacts(after, context) }
                  : undefined,
            }
          : {}),
      });
  }
  for (const transition of flagTransitions(change)) {
    const attachment = attachments.find((entry) => entry.after.id === transition.attachmentId)?.after;
    const flag = () => ({ flag: flagFacts(transition, context) });
    // Get Bug shows outsiders neither a private attachment nor its flags: they learn that its flag
    // moved, not who was asked or who asked.
    const redactedFlag = () => {
      const {
        requestee: _requestee,
        requester: _requester,
        setter: _setter,
        ...facts
      } = flagFacts(transition, context);
      return { flag: { ...facts, redacted: true }, attachment: { id: transition.attachmentId, is_private: true } };
    };
    list.push({
      kind: FLAG_KINDS[transition.action],
      detail: flag,
      ...(attachment?.isPrivate ? { redacted: redactedFlag } : {}),
    });
  }
  return list;
}

/** Cuts a detail's longest values until it fits EventBridge: change values first, then comment text. */
function withinLimit(detail: Record<string, unknown>): Record<string, unknown> {
  if (byteSize(detail) <= MAX_DETAIL_BYTES) return detail;
  const fitted = structuredClone(detail);
  const cut = (text: string, length: number) => Array.from(text).slice(0, length).join('');
  for (const entry of (fitted.changes ?? []) as Array<Record<string, unknown>>) {
    for (const side of ['removed', 'added']) {
      const value = String(entry[side] ?? '');
      if (Array.from(value).length > LONG_CHANGE_VALUE) {
        entry[side] = cut(value, LONG_CHANGE_VALUE);
        entry.truncated = true;
      }
    }
  }
  const comment = fitted.comment as Record<string, unknown> | undefined;
  if (byteSize(fitted) > MAX_DETAIL_BYTES && comment && typeof comment.text === 'string') {
    const text = comment.text;
    comment.truncated = true;
    let [low, high] = [0, Array.from(text).length];
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      comment.text = cut(text, middle);
      if (byteSize(fitted) <= MAX_DETAIL_BYTES) low = middle;
      else high = middle - 1;
    }
    comment.text = cut(text, low);
  }
  return fitted;
}

/**
 * The events of one change for one audience, in order: the bug created or changed, each new
 * comment (by number), each new or changed attachment (by id), each flag requested, granted,
 * denied or cleared. A change with nothing this audience may read about yields no event.
 */
export function bugEvents(
  change: BugChange,
  context: EventContext,
  audience: EventAudience = PUBLIC_AUDIENCE,
): TrackerEvent[] {
  const bugId = bugIdOf(change);
  const restricted = change.after.groupIds.length > 0 && !audience.restrictedBugs;
  const numbers = new Map<EventKind, number>();
  const events: TrackerEvent[] = [];
  for (const candidate of candidates(change, context, audience)) {
    const index = numbers.get(candidate.kind) ?? 0;
    numbers.set(candidate.kind, index + 1);
    const own = candidate.redacted && !audience.insider ? candidate.redacted() : candidate.detail();
    if (own === undefined) continue;
    const id = `${bugId}-${change.revision}-${candidate.kind}-${index}`;
    const common = { event_id: id, when: change.when, revision: change.revision };
    const detail = restricted
      ? { bug: { id: bugId, is_private: true }, ...common }
      : withinLimit({
          bug: bugFacts(change, context.names),
          who: context.names.login(change.whoId),
          ...common,
          ...own,
        });
    events.push({
      source: EVENT_SOURCE,
      kind: candidate.kind,
      detailType: DETAIL_TYPES[candidate.kind],
      id,
      time: change.when,
      detail,
    });
  }
  return events;
}

/** A PutEvents entry (plain data: the caller hands it to the SDK with its bus name). */
export const eventBridgeEntry = (event: TrackerEvent) => ({
  Source: event.source,
  DetailType: event.detailType,
  Detail: JSON.stringify(event.detail),
  Time: new Date(event.time),
});

/** The body a webhook receives: the event as EventBridge delivers it, with the key as `id`. */
export const webhookBody = (event: TrackerEvent): string =>
  JSON.stringify({
    id: event.id,
    source: event.source,
    'detail-type': event.detailType,
    time: event.time,
    detail: event.detail,
  });
