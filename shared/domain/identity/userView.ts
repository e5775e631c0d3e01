import type { Caller, GroupSummary, UserAccount } from './caller.ts';
import { canBless, inGroup, isLoggedIn, nickFor } from './caller.ts';

/**
 * The three visibility tiers of a user item (spec, "Visibility of user items"):
 * logged out: id, name, real_name, nick; logged in: + email, can_login, groups (only those the
 * caller can bless, unless it is their own account or they are in editusers); editusers:
 * + email_enabled, login_denied_text; own account: + saved_searches, saved_reports.
 */
export const EDITUSERS_GROUP = 'editusers';

export interface SavedSearch {
  id: number;
  name: string;
  query: string;
}

export interface UserSubject {
  user: UserAccount;
  groups: readonly GroupSummary[];
  /** The groups the user may bless (their own grants, not derived ones). */
  blessGroups?: readonly GroupSummary[];
  savedSearches?: readonly SavedSearch[];
  savedReports?: readonly SavedSearch[];
}

/** The user detail object embedded in bugs (assigned_to_detail...). */
export function userDetail(user: Pick<UserAccount, 'id' | 'login' | 'realName'>, caller: Caller) {
  const detail: Record<string, unknown> = {
    id: user.id,
    real_name: user.realName,
    nick: nickFor(user),
    name: user.login,
  };
  if (isLoggedIn(caller)) detail.email = user.login;
  return detail;
}

export function userView(caller: Caller, subject: UserSubject): Record<string, unknown> {
  const { user } = subject;
  const view: Record<string, unknown> = {
    id: user.id,
    real_name: user.realName,
    nick: nickFor(user),
    name: user.login,
  };
  if (!isLoggedIn(caller)) return view;

  const isSelf = caller.user.id === user.id;
  const isUserAdmin = inGroup(caller, EDITUSERS_GROUP);
  view.email = user.login;
  view.can_login = user.disabledText === '';
  if (isUserAdmin) {
    view.email_enabled = user.emailEnabled;
    view.login_denied_text = user.disabledText;
  }
  view.groups = subject.groups
    .filter((group) => isSelf || isUserAdmin || canBless(caller, group.name))
    .map((group) => ({ id: group.id, name: group.name, description: group.description }));
  // Tracker addition: who may grant what, for the administrators who hand out that right.
  if (isSelf || isUserAdmin) {
    view.bless_groups = (subject.blessGroups ?? []).map((group) => ({
      id: group.id,
      name: group.name,
      description: group.description,
    }));
  }
  if (isSelf) {
    view.saved_searches = subject.savedSearches ?? [];
    view.saved_reports = subject.savedReports ?? [];
  }
  return view;
}
