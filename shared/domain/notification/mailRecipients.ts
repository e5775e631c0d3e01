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
} from './mailPreferences.ts';
import { recipientView } from './recipientView.ts';

/**
 * Who is mailed about a change, and why, by Bugzilla's rules (BugMail::Send, Flag->notify):
 * the people in the bug's roles (and those the change took out of one), global watchers, and
 * for flags the person asked and the person who asked. Never someone who cannot see the bug
 * as the change left it, nor an account that is disabled or has mail turned off, nor the
 * person who made the change unless they want their own changes, nor someone with nothing
 * they may read in it (a change only to a private comment says nothing to an outsider).
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

/** Everyone the change concerns, with every relationship that makes it so. */
function concerned(change: BugChange, context: RecipientContext): Map<number, Set<Relationship>> {
  const roles = new Map<number, Set<Relationship>>();
  const add = (userId: number | null | undefined, relationship: Relationship) => {
    if (userId === null || userId === undefined) return;
    if (!roles.has(userId)) roles.set(userId, new Set());
    roles.get(userId)!.add(relationship);
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
  for (const login of (context.parameters.globalwatchers ?? '').split(/[\s,]+/).filter(Boolean))
    add(context.directory.userByLogin(login)?.caller.user.id, 'GlobalWatcher');
  return roles;
}

/** Who gets the bug mail of this change and why, in user id order. */
export function bugMailRecipients(change: BugChange, context: RecipientContext): BugMailRecipient[] {
  const recipients: BugMailRecipient[] = [];
  const roles = concerned(change, context);
  for (const userId of [...roles.keys()].sort((a, b) => a - b)) {
    const user = context.directory.user(userId);
    if (!user || !takesMail(user.caller.user) || !seesBug(user.caller, change, context)) continue;
    const preferences = user.preferences ?? DEFAULT_MAIL_PREFERENCES;
    const circumstances = { changedByThem: userId === change.whoId, unconfirmed: change.after.status === UNCONFIRMED };
    const reasons = RELATIONSHIPS.filter(
      (relationship) =>
        roles.get(userId)!.has(relationship) &&
        wantsBugMail(
          preferences,
          relationship,
          bugMailEvents(change, relationship, user.caller.user.login),
          circumstances,
        ),
    );
    if (reasons.length === 0) continue;
    const view = recipientView(change, user.caller, context.parameters);
    if (change.before !== null && view.changes.length === 0 && view.comments.length === 0) continue;
    recipients.push({ user, reasons });
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
      if (user.caller.user.id === change.whoId && !preferences.ownChanges) return undefined;
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
