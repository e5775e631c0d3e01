import { errors } from '../../errors.ts';
import { characterCount, checkNameCharacters, checkTextLength } from '../inputLimits.ts';
import { SYSTEM_GROUPS } from '../instance/installation.ts';
import { type Caller, canBless, type GroupSummary, inGroup, nickFor, type UserAccount } from './caller.ts';

/** Group names, descriptions and regexps as Bugzilla checks them, and who sees what of a group. */
export const CREATEGROUPS_GROUP = 'creategroups';
export const MAX_GROUP_NAME_LENGTH = 255;

export function checkGroupName(name: string | undefined): string {
  const trimmed = (name ?? '').trim();
  checkNameCharacters(trimmed, 'group name');
  if (trimmed === '') throw errors.groupNameRequired('You must enter a name for the group.');
  if (characterCount(trimmed) > MAX_GROUP_NAME_LENGTH)
    throw errors.invalidParameter(`Group names can be at most ${MAX_GROUP_NAME_LENGTH} characters long.`);
  if (/,/.test(trimmed)) throw errors.invalidParameter('Group names cannot contain commas.');
  return trimmed;
}

export function checkGroupDescription(description: string | undefined): string {
  const trimmed = (description ?? '').trim();
  if (trimmed === '') throw errors.groupDescriptionRequired('You must enter a description for the group.');
  return trimmed;
}

/** Bugzilla's groups.icon_url is a TINYTEXT. */
export const checkIconUrl = (url: string | undefined): string | undefined =>
  url === undefined ? undefined : checkTextLength(url.trim(), 'icon_url', 255);

export const isSystemGroup = (name: string) => SYSTEM_GROUPS.some((group) => group.name === name);

/**
 * Visibility (spec, Get Group): creategroups sees everything; editusers, or bless rights on the
 * group, see members but not is_active, is_bug_group, user_regexp; nobody else sees the group.
 */
export function mayViewGroup(caller: Caller, group: GroupSummary): boolean {
  return inGroup(caller, CREATEGROUPS_GROUP) || inGroup(caller, 'editusers') || canBless(caller, group.name);
}

export function mayListGroups(caller: Caller): boolean {
  return inGroup(caller, CREATEGROUPS_GROUP) || inGroup(caller, 'editusers') || caller.blessGroups.size > 0;
}

export function groupView(
  caller: Caller,
  group: GroupSummary,
  allGroups: readonly GroupSummary[],
  members?: readonly UserAccount[],
): Record<string, unknown> {
  const view: Record<string, unknown> = { id: group.id, name: group.name, description: group.description };
  if (inGroup(caller, CREATEGROUPS_GROUP)) {
    view.is_bug_group = group.isBugGroup;
    view.user_regexp = group.userRegexp;
    view.is_active = group.isActive;
    // Tracker's extension: the groups whose members are members of this one (built-in
    // implications such as editbugs -> bz_canusewhines aside).
    const included = new Set(group.memberGroups ?? []);
    view.member_groups = allGroups.filter((other) => included.has(other.id)).map((other) => other.name);
  }
  if (members) {
    view.membership = members.map((user) => ({
      id: user.id,
      real_name: user.realName,
      nick: nickFor(user),
      email: user.login,
      name: user.login,
      can_login: user.disabledText === '',
      email_enabled: user.emailEnabled,
      login_denied_text: user.disabledText,
    }));
  }
  return view;
}
