import { maySeeAttachment } from '../bug/attachment.ts';
import { canSeeBug, type GroupName } from '../bug/bugAccess.ts';
import { UNCONFIRMED } from '../bug/bugWorkflow.ts';
import type { FlagType } from '../catalog/flagTypes.ts';
import type { Caller, UserAccount } from '../identity/caller.ts';
import type { Parameters } from '../instance/parameters.ts';
import { type BugChange, type FlagTransition, flagTransitions } from './bugChange.ts';
import {
  bugMailEvents,
  DEFAULT_MAIL_PREFERENCES,
  type MailPreferences,
  RELATIONSHIPS,
  type Relationship,
  wantsBugMail,
  wantsOwnChanges,
} from './mailPreferences.ts';
import { recipientView } from './recipientView.ts';

/**
 * Who is mailed about a change, and why, by Bugzilla's rules (BugMail::Send, Flag->notify):
 * the people in the bug's roles (and those the change took out of one), whoever watches one of
 * them (Bugzilla's user watching: the watcher stands in their shoes, with the watcher's own
 * preferences), global watchers, and for flags the person asked and the person who asked.
 * Never someone who cannot see the bug as the change left it, nor an account that is disabled
 * or has mail turned off, nor someone who ignores the bug, nor the person who made the change
 * unless they want their own changes, nor someone with nothing they may read in it (a change
 * only to a private comment says nothing to an outsider).
 */

/** A person who may be mailed: their account and groups, and their mail preferences (Bugzilla's defaults when absent). */
export interface MailUser {
  caller: Caller & { user: UserAccount };
  preferences?: MailPreferences;
}

export interface MailDirectory {
  user(id: number): MailUser | undefined;
  /** Global watchers and flag type CC lists name people by login. */
  userByLogin(login: string): MailUser | undefined;
  /** Who watches this person (Bugzilla's `watch` table, by the watched): ids, any order. */
  watchersOf(userId: number): readonly number[];
}

export interface RecipientContext {
  parameters: Parameters;
  groupName: GroupName;
  directory: MailDirectory;
}

export interface BugMailRecipient {
  user: MailUser;
  /** Why they are mailed, in Bugzilla's order: the X-Bugzilla-Reason header and the mail's footer. */
  reasons: Relationship[];
  /** The relationships of people they watch that they are mailed for (X-Bugzilla-Watch-Reason). */
  watchReasons: Relationship[];
  /** The logins of the people they watch whom the change concerns, in user id order. */
  watching: string[];
}

/** Bugzilla's mail_delivery_method: None sends nothing, Test keeps mail where it can be read, the others send it. */
export type MailDelivery = 'none' | 'test' | 'send';

export function mailDelivery(parameters: Parameters): MailDelivery {
  switch (parameters.mail_delivery_method) {
    case 'Test':
      return 'test';
    case 'SMTP':
    case 'Sendmail':
      return 'send';
    default:
      return 'none';
  }
}

/** An account that takes mail: enabled, and with bug mail on (Bugzilla's disable_mail). */
export const takesMail = (user: Pick<UserAccount, 'emailEnabled' | 'disabledText'>): boolean =>
  user.emailEnabled && user.disabledText === '';

/** Where mail to an account goes: its login, with the emailsuffix parameter (Bugzilla's User->email). */
export const mailAddress = (login: string, parameters: Parameters): string => `${login}${parameters.emailsuffix ?? ''}`;

const seesBug = (caller: Caller, change: BugChange, context: RecipientContext) =>
  canSeeBug(caller, change.after, context.groupName, context.parameters.or_groups === '1');

/** How one person is concerned: their own relationships, those of people they watch, and whom they watch. */
interface Concern {
  direct: Set<Relationship>;
  watched: Set<Relationship>;
  watching: Set<number>;
}

/** Everyone the change concerns, with every relationship that makes it so (Bugzilla's %recipients). */
function concerned(change: BugChange, context: RecipientContext): Map<number, Concern> {
  const concerns = new Map<number, Concern>();
  const concernOf = (userId: number) => {
    let concern = concerns.get(userId);
    if (!concern) {
      concern = { direct: new Set(), watched: new Set(), watching: new Set() };
      concerns.set(userId, concern);
    }
    return concern;
  };
  const add = (userId: number | null | undefined, relationship: Relationship) => {
    if (userId === null || userId === undefined) return;
    concernOf(userId).direct.add(relationship);
  };
  const { before, after } = change;
  // Those the change took off the CC list or out of a role hear of it one last time.
  for (const id of [...after.ccIds, ...(before?.ccIds ?? [])]) add(id, 'CC');
  add(after.reporterId, 'Reporter');
  if (context.parameters.useqacontact === '1') {
    add(after.qaContactId, 'QAcontact');
    add(before?.qaContactId, 'QAcontact');
  }
  add(after.assigneeId, 'AssignedTo');
  add(before?.assigneeId, 'AssignedTo');
  // Watchers take the roles of whom they watch; watching a watcher passes nothing on, and
  // global watching is added after, so nobody watches a global watcher.
  const direct = [...concerns.entries()].map(([userId, concern]) => [userId, [...concern.direct]] as const);
  for (const [watchedId, relationships] of direct) {
    for (const watcherId of context.directory.watchersOf(watchedId)) {
      if (watcherId === watchedId) continue;
      const watcher = concernOf(watcherId);
      for (const relationship of relationships) watcher.watched.add(relationship);
      watcher.watching.add(watchedId);
    }
  }
  for (const login of (context.parameters.globalwatchers ?? '').split(/[\s,]+/).filter(Boolean))
    add(context.directory.userByLogin(login)?.caller.user.id, 'GlobalWatcher');
  return concerns;
}

/** Whether the person ignores the bug (Bugzilla's is_bug_ignored): no mail of any kind about it. */
const ignoresBug = (preferences: MailPreferences, change: BugChange) => preferences.ignoredBugIds.has(change.after.id);

/** Who gets the bug mail of this change and why, in user id order. */
export function bugMailRecipients(change: BugChange, context: RecipientContext): BugMailRecipient[] {
  const recipients: BugMailRecipient[] = [];
  const concerns = concerned(change, context);
  for (const userId of [...concerns.keys()].sort((a, b) => a - b)) {
    const user = context.directory.user(userId);
    if (!user || !takesMail(user.caller.user)) continue;
    const preferences = user.preferences ?? DEFAULT_MAIL_PREFERENCES;
    if (ignoresBug(preferences, change) || !seesBug(user.caller, change, context)) continue;
    const concern = concerns.get(userId)!;
    const circumstances = { changedByThem: userId === change.whoId, unconfirmed: change.after.status === UNCONFIRMED };
    const wants = (relationship: Relationship) =>
      wantsBugMail(
        preferences,
        relationship,
        bugMailEvents(change, relationship, user.caller.user.login),
        circumstances,
      );
    const reasons = RELATIONSHIPS.filter((relationship) => concern.direct.has(relationship) && wants(relationship));
    const watchReasons = RELATIONSHIPS.filter(
      (relationship) => concern.watched.has(relationship) && wants(relationship),
    );
    if (reasons.length === 0 && watchReasons.length === 0) continue;
    const view = recipientView(change, user.caller, context.parameters);
    if (change.before !== null && view.changes.length === 0 && view.comments.length === 0) continue;
    const watching = [...concern.watching]
      .sort((a, b) => a - b)
      .map((id) => context.directory.user(id)?.caller.user.login)
      .filter((login): login is string => login !== undefined);
    recipients.push({ user, reasons, watchReasons, watching });
  }
  return recipients;
}

/**
 * Why someone gets a flag's request mail: they were asked to set it, they asked and it was
 * answered or withdrawn, or the flag type's CC list names them.
 */
export type FlagMailReason = 'Requestee' | 'Requester' | 'FlagTypeCC';

export interface FlagMailRecipient {
  transition: FlagTransition;
  reason: FlagMailReason;
  address: string;
  /** The account behind the address; null for an address on a flag type's CC list that has none. */
  user: MailUser | null;
}

export interface FlagRecipientContext extends RecipientContext {
  flagType(id: number): Pick<FlagType, 'ccList'> | undefined;
}

/** Who gets request mail about the flags of this change, transition by transition. */
export function flagMailRecipients(change: BugChange, context: FlagRecipientContext): FlagMailRecipient[] {
  const { parameters, directory } = context;
  const recipients: FlagMailRecipient[] = [];
  for (const transition of flagTransitions(change)) {
    const flag = transition.after ?? transition.before!;
    const attachment = change.attachments.find((entry) => entry.after.id === transition.attachmentId)?.after;
    const mayRead = (caller: Caller) =>
      seesBug(caller, change, context) && (!attachment || maySeeAttachment(caller, parameters, attachment));
    const addressed = new Set<string>();
    const add = (reason: FlagMailReason, address: string, user: MailUser | null) => {
      if (addressed.has(address.toLowerCase())) return;
      addressed.add(address.toLowerCase());
      recipients.push({ transition, reason, address, user });
    };
    const eligible = (user: MailUser | undefined, wants: (preferences: MailPreferences) => boolean) => {
      if (!user || !takesMail(user.caller.user) || !mayRead(user.caller)) return undefined;
      const preferences = user.preferences ?? DEFAULT_MAIL_PREFERENCES;
      // Tracker keeps the preferences page's word: an ignored bug sends no mail "of any kind".
      if (ignoresBug(preferences, change)) return undefined;
      if (user.caller.user.id === change.whoId && !wantsOwnChanges(preferences)) return undefined;
      return wants(preferences) ? user : undefined;
    };
    const byId = (userId: number | null) => (userId === null ? undefined : directory.user(userId));

    if (transition.action === 'requested') {
      const requestee = eligible(byId(transition.after!.requesteeId), (preferences) => preferences.flagRequested);
      if (requestee) add('Requestee', mailAddress(requestee.caller.user.login, parameters), requestee);
    } else if (transition.requesterId !== null) {
      const requester = eligible(byId(transition.requesterId), (preferences) => preferences.requestedFlag);
      if (requester) add('Requester', mailAddress(requester.caller.user.login, parameters), requester);
    }
    // The type's CC list hears of every change of its flags, as far as each may read it; an
    // address without an account only while neither the bug nor the attachment is private.
    const ccList = context.flagType(flag.typeId)?.ccList ?? '';
    for (const address of ccList.split(/[,\s]+/).filter(Boolean)) {
      const user = directory.userByLogin(address) ?? null;
      if (user === null) {
        if (change.after.groupIds.length === 0 && !attachment?.isPrivate) add('FlagTypeCC', address, null);
        continue;
      }
      if (eligible(user, () => true)) add('FlagTypeCC', mailAddress(user.caller.user.login, parameters), user);
    }
  }
  return recipients;
}
