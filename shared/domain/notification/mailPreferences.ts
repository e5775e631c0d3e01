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

/** Every positive event, in the order Bugzilla's preferences page lists them. */
export const MAIL_EVENTS: readonly MailEvent[] = [
  'addedRemoved',
  'bugCreated',
  'openedClosed',
  'component',
  'projectManagement',
  'comment',
  'attachment',
  'attachmentData',
  'keyword',
  'cc',
  'dependBlock',
  'other',
];

/** The relationships a person chooses events for; a global watcher gets everything. */
export type ChosenRelationship = Exclude<Relationship, 'GlobalWatcher'>;

export const CHOSEN_RELATIONSHIPS: readonly ChosenRelationship[] = ['AssignedTo', 'Reporter', 'QAcontact', 'CC'];

/** One column of Bugzilla's matrix: the events that send mail in a relationship, and its two exceptions. */
export interface RelationshipMail {
  events: ReadonlySet<MailEvent>;
  /** Mail even while the bug is UNCONFIRMED (EVT_UNCONFIRMED set; the "but not when" box unticked). */
  unconfirmed: boolean;
  /** Mail even about my own changes (EVT_CHANGED_BY_ME set; the "but not when" box unticked). */
  ownChanges: boolean;
}

export interface MailPreferences {
  relationships: Readonly<Record<ChosenRelationship, RelationshipMail>>;
  /** Mail when someone asks me to set a flag (EVT_FLAG_REQUESTED). */
  flagRequested: boolean;
  /** Mail when someone sets a flag I asked for (EVT_REQUESTED_FLAG). */
  requestedFlag: boolean;
  /** Bugs I never want mail about (Bugzilla's email_bug_ignore). */
  ignoredBugIds: ReadonlySet<number>;
}

const column = (events: readonly MailEvent[]): RelationshipMail =>
  Object.freeze({ events: new Set(events), unconfirmed: true, ownChanges: false });

/**
 * What a new Bugzilla account starts with (User->create): every event in every relationship,
 * except a mere CC list change for anyone but the reporter, and never one's own changes.
 */
export const DEFAULT_MAIL_PREFERENCES: MailPreferences = Object.freeze({
  relationships: Object.freeze({
    AssignedTo: column(MAIL_EVENTS.filter((event) => event !== 'cc')),
    Reporter: column(MAIL_EVENTS),
    QAcontact: column(MAIL_EVENTS.filter((event) => event !== 'cc')),
    CC: column(MAIL_EVENTS.filter((event) => event !== 'cc')),
  }),
  flagRequested: true,
  requestedFlag: true,
  ignoredBugIds: new Set<number>(),
});

/** Whether the person asked for their own changes in any relationship (Tracker's rule where Bugzilla has none: flags, global watching). */
export const wantsOwnChanges = (preferences: MailPreferences): boolean =>
  CHOSEN_RELATIONSHIPS.some((relationship) => preferences.relationships[relationship].ownChanges);

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
 * contact and CCs newly added; Bugzilla looks at no field of a new bug. `login` is the
 * recipient's own (for a user watcher, the watcher's: as in Bugzilla, someone else joining the
 * CC list is a CC change to them, not their being added).
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
 * Whether someone in this relationship wants mail about a change made of these events: one of
 * the events is ticked in that relationship's column, and neither exception of the column
 * applies. A global watcher wants every change; Tracker still spares them their own (Bugzilla
 * mails a global watcher even those) unless they asked for their own changes somewhere, so no
 * one is mailed what they just did unless they asked to be.
 */
export function wantsBugMail(
  preferences: MailPreferences,
  relationship: Relationship,
  events: ReadonlySet<MailEvent>,
  circumstances: MailCircumstances,
): boolean {
  if (events.size === 0) return false;
  if (relationship === 'GlobalWatcher') return !circumstances.changedByThem || wantsOwnChanges(preferences);
  const chosen = preferences.relationships[relationship];
  if (![...events].some((event) => chosen.events.has(event))) return false;
  if (circumstances.changedByThem && !chosen.ownChanges) return false;
  if (circumstances.unconfirmed && !chosen.unconfirmed) return false;
  return true;
}

/** What a person asks to change of their preferences: only what is named changes. */
export interface MailPreferencesChange {
  relationships?: Partial<
    Record<
      ChosenRelationship,
      { events?: Partial<Record<MailEvent, boolean>>; unconfirmed?: boolean; ownChanges?: boolean }
    >
  >;
  flagRequested?: boolean;
  requestedFlag?: boolean;
  ignoreBugs?: readonly number[];
  unignoreBugs?: readonly number[];
}

/** The preferences with a change applied (a bug both ignored and unignored ends ignored, as Bugzilla adds after it removes). */
export function changeMailPreferences(preferences: MailPreferences, change: MailPreferencesChange): MailPreferences {
  const relationships = Object.fromEntries(
    CHOSEN_RELATIONSHIPS.map((relationship) => {
      const current = preferences.relationships[relationship];
      const asked = change.relationships?.[relationship];
      if (!asked) return [relationship, current];
      const events = new Set(current.events);
      for (const [event, on] of Object.entries(asked.events ?? {}) as Array<[MailEvent, boolean | undefined]>) {
        if (on === true) events.add(event);
        else if (on === false) events.delete(event);
      }
      return [
        relationship,
        {
          events,
          unconfirmed: asked.unconfirmed ?? current.unconfirmed,
          ownChanges: asked.ownChanges ?? current.ownChanges,
        },
      ];
    }),
  ) as Record<ChosenRelationship, RelationshipMail>;
  const ignored = new Set(preferences.ignoredBugIds);
  for (const id of change.unignoreBugs ?? []) ignored.delete(id);
  for (const id of change.ignoreBugs ?? []) ignored.add(id);
  return {
    relationships,
    flagRequested: change.flagRequested ?? preferences.flagRequested,
    requestedFlag: change.requestedFlag ?? preferences.requestedFlag,
    ignoredBugIds: ignored,
  };
}
