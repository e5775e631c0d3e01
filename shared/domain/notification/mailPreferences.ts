import type { HistoryChange } from '../bug/bug.ts';
import { storedFieldName } from '../bug/bugFields.ts';
import type { BugChange } from './bugChange.ts';

/**
 * Who wants which bug mail, as Bugzilla's e-mail preferences decide (User::wants_bug_mail and
 * its email_setting matrix): a person's relationships to the bug, the events a change is made
 * of from where they stand, and which events they asked mail for in which relationship.
 */

/** A person's relationship to the bug, under the name Bugzilla puts in X-Bugzilla-Reason. */
export type Relationship = 'AssignedTo' | 'Reporter' | 'QAcontact' | 'CC' | 'GlobalWatcher';

/** In the order the reason header and the mail's footer list them. */
export const RELATIONSHIPS: readonly Relationship[] = ['AssignedTo', 'Reporter', 'QAcontact', 'CC', 'GlobalWatcher'];

/** Bugzilla's positive events (EVT_*): what a change is made of. */
export type MailEvent =
  | 'other'
  | 'addedRemoved'
  | 'comment'
  | 'attachment'
  | 'attachmentData'
  | 'projectManagement'
  | 'openedClosed'
  | 'keyword'
  | 'cc'
  | 'dependBlock'
  | 'bugCreated'
  | 'component';

const ALL_EVENTS: readonly MailEvent[] = [
  'other',
  'addedRemoved',
  'comment',
  'attachment',
  'attachmentData',
  'projectManagement',
  'openedClosed',
  'keyword',
  'cc',
  'dependBlock',
  'bugCreated',
  'component',
];

/** The relationships a person chooses events for; a global watcher gets everything. */
export type ChosenRelationship = Exclude<Relationship, 'GlobalWatcher'>;

export interface MailPreferences {
  /** For each relationship, the events that send mail. */
  events: Readonly<Record<ChosenRelationship, ReadonlySet<MailEvent>>>;
  /** Mail about one's own changes (Bugzilla's "the change was made by me" exception unticked). */
  ownChanges: boolean;
  /** Mail about bugs still UNCONFIRMED. */
  unconfirmed: boolean;
  /** Mail when someone asks me to set a flag (EVT_FLAG_REQUESTED). */
  flagRequested: boolean;
  /** Mail when someone sets a flag I asked for (EVT_REQUESTED_FLAG). */
  requestedFlag: boolean;
}

const allBut = (left: MailEvent): ReadonlySet<MailEvent> => new Set(ALL_EVENTS.filter((event) => event !== left));

/**
 * What a new Bugzilla account starts with (User->create): every event in every relationship,
 * except a mere CC list change for anyone but the reporter, and never one's own changes.
 */
export const DEFAULT_MAIL_PREFERENCES: MailPreferences = Object.freeze({
  events: Object.freeze({
    AssignedTo: allBut('cc'),
    Reporter: new Set(ALL_EVENTS),
    QAcontact: allBut('cc'),
    CC: allBut('cc'),
  }),
  ownChanges: false,
  unconfirmed: true,
  flagRequested: true,
  requestedFlag: true,
});

/** Bugzilla's %names_to_events, by stored field name; any other field is `other`. */
const FIELD_EVENTS: Readonly<Record<string, MailEvent>> = {
  resolution: 'openedClosed',
  keywords: 'keyword',
  cc: 'cc',
  bug_severity: 'projectManagement',
  priority: 'projectManagement',
  bug_status: 'projectManagement',
  target_milestone: 'projectManagement',
  'attachments.description': 'attachmentData',
  'attachments.mimetype': 'attachmentData',
  'attachments.ispatch': 'attachmentData',
  dependson: 'dependBlock',
  blocked: 'dependBlock',
  product: 'component',
  component: 'component',
};

/** Whether a `, `-joined list of logins (a CC change) names this login. */
const listNames = (list: string, login: string): boolean =>
  list
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .includes(login.toLowerCase());

/**
 * The events a change is made of for someone in one relationship: each changed field's event,
 * "added or removed" when their own role changed hands or they joined or left the CC list, and
 * the comment or attachment event. A new bug is its own event, and makes its assignee, QA
 * contact and CCs newly added; Bugzilla looks at no field of a new bug.
 */
export function bugMailEvents(change: BugChange, relationship: Relationship, login: string): Set<MailEvent> {
  const events = new Set<MailEvent>();
  const changes: readonly HistoryChange[] = change.before === null ? [] : change.changes;
  for (const { field_name, removed, added } of changes) {
    const field = storedFieldName(field_name);
    events.add(FIELD_EVENTS[field] ?? 'other');
    if (
      (field === 'assigned_to' && relationship === 'AssignedTo') ||
      (field === 'qa_contact' && relationship === 'QAcontact')
    )
      events.add('addedRemoved');
    if (field === 'cc' && listNames(removed, login) !== listNames(added, login)) events.add('addedRemoved');
  }
  if (change.before === null) {
    events.add('bugCreated');
    if (relationship === 'AssignedTo' || relationship === 'QAcontact' || relationship === 'CC')
      events.add('addedRemoved');
  }
  if (change.comments.some((comment) => comment.commentType === 'attachment_created')) events.add('attachment');
  else if (change.comments.length > 0) events.add('comment');
  return events;
}

export interface MailCircumstances {
  /** The person made the change themselves. */
  changedByThem: boolean;
  /** The bug is UNCONFIRMED after the change. */
  unconfirmed: boolean;
}

/**
 * Whether someone in this relationship wants mail about a change made of these events. A
 * global watcher wants every change; Tracker still spares them their own (Bugzilla mails a
 * global watcher even those), so no one is mailed what they just did unless they asked to be.
 */
export function wantsBugMail(
  preferences: MailPreferences,
  relationship: Relationship,
  events: ReadonlySet<MailEvent>,
  circumstances: MailCircumstances,
): boolean {
  if (events.size === 0) return false;
  if (circumstances.changedByThem && !preferences.ownChanges) return false;
  if (relationship === 'GlobalWatcher') return true;
  if (circumstances.unconfirmed && !preferences.unconfirmed) return false;
  const chosen = preferences.events[relationship];
  return [...events].some((event) => chosen.has(event));
}
