import { bitmapHas, type UserIdBitmap } from './userIdBitmap.ts';

/**
 * Who is calling: anonymous, or a user with the groups they are in (directly, through a group's
 * user_regexp, or through the admin group) and the groups they may bless. Every permission
 * question later asks this model; it knows nothing of HTTP or storage.
 */
export interface UserAccount {
  id: number;
  login: string;
  realName: string;
  /** Non-empty: the account is disabled and this is why. */
  disabledText: string;
  emailEnabled: boolean;
  passwordHash?: string;
  /** Bugzilla's "must change password": the password still logs in nowhere until changed (305). */
  passwordChangeRequired?: boolean;
  /** Login tokens issued before this instant (epoch ms) are dead: set on e-mail change and disabling. */
  tokensNotBefore?: number;
}

export interface GroupSummary {
  id: number;
  name: string;
  description: string;
  isActive: boolean;
  isBugGroup: boolean;
  userRegexp: string;
  /**
   * Users whose login the user_regexp matches, as Bugzilla keeps them (user_group_map rows of
   * grant type "regexp"): derived when a user is created or changes login and when the regexp
   * changes (groupRegexps.ts), so no request matches regexps to know who is in a group.
   * Undefined: never derived (a group stored before this was kept; bootstrap derives it).
   */
  regexpMembers?: UserIdBitmap;
  /**
   * Ids of the groups whose members are thereby members of this one (Bugzilla's editgroups
   * "Groups That Are a Member of This Group", group_group_map rows of grant type member).
   * Undefined for a group stored before inclusions were kept: it includes none.
   */
  memberGroups?: readonly number[];
}

export interface Membership {
  /** Groups the user was put in directly. */
  memberOf: readonly number[];
  /** Groups whose membership the user may change (Bugzilla's bless right). */
  canBless: readonly number[];
}

export interface Caller {
  readonly user: UserAccount | null;
  /** Names of every group the caller is in. */
  readonly groups: ReadonlySet<string>;
  /** Names of every group the caller may bless. */
  readonly blessGroups: ReadonlySet<string>;
}

export const ADMIN_GROUP = 'admin';

export const ANONYMOUS: Caller = Object.freeze({
  user: null,
  groups: new Set<string>(),
  blessGroups: new Set<string>(),
});

/** Whether a group's user_regexp makes the user a member (as derived when either last changed). */
export function isRegexpMember(group: Pick<GroupSummary, 'userRegexp' | 'regexpMembers'>, userId: number): boolean {
  return group.userRegexp !== '' && bitmapHas(group.regexpMembers ?? '', userId);
}

/**
 * Bugzilla's system groups that make their members members of others (its installer writes these
 * grants into group_group_map): whoever may edit bugs or whine at others may whine, and whoever
 * may impersonate may not be impersonated. One level deep, as in Bugzilla's defaults.
 */
export const IMPLIED_GROUPS: Readonly<Record<string, readonly string[]>> = {
  editbugs: ['bz_canusewhines'],
  bz_canusewhineatothers: ['bz_canusewhines'],
  bz_sudoers: ['bz_sudo_protect'],
};

/** Names of the built-in groups whose members are thereby members of `name` (admin aside). */
export const groupsImplying = (name: string): string[] =>
  Object.keys(IMPLIED_GROUPS).filter((source) => IMPLIED_GROUPS[source]!.includes(name));

/**
 * The groups a member of `start` is thereby in: `start` itself and, transitively, every group
 * that includes one of them (memberGroups) or that Bugzilla's built-in table implies. A set, so
 * inclusions in a cycle are harmless.
 */
function includedClosure<G extends GroupSummary>(
  start: readonly G[],
  allGroups: readonly G[],
  next: (group: G) => readonly G[],
): G[] {
  const reached = new Map(start.map((group) => [group.id, group]));
  const pending = [...start];
  for (let group = pending.pop(); group !== undefined; group = pending.pop()) {
    for (const other of next(group)) {
      if (reached.has(other.id)) continue;
      reached.set(other.id, other);
      pending.push(other);
    }
  }
  return allGroups.filter((group) => reached.has(group.id));
}

/** The groups that include `group` directly: by a stored inclusion or a built-in implication. */
function groupsIncluding<G extends GroupSummary>(allGroups: readonly G[]): (group: G) => readonly G[] {
  return (group) =>
    allGroups.filter(
      (other) =>
        other.memberGroups?.includes(group.id) === true || (IMPLIED_GROUPS[group.name] ?? []).includes(other.name),
    );
}

/** The groups `group` includes directly: by a stored inclusion or a built-in implication. */
function groupsIncludedIn<G extends GroupSummary>(allGroups: readonly G[]): (group: G) => readonly G[] {
  return (group) => {
    const members = new Set(group.memberGroups ?? []);
    const implying = groupsImplying(group.name);
    return allGroups.filter((other) => members.has(other.id) || implying.includes(other.name));
  };
}

/** Every group whose members are (perhaps through a chain) members of `group`, `group` included. */
export function groupsLeadingTo<G extends GroupSummary>(group: G, allGroups: readonly G[]): G[] {
  return includedClosure([group], allGroups, groupsIncludedIn(allGroups));
}

/**
 * Groups a user belongs to: direct membership and regexp rules, plus every group these include
 * (memberGroups and IMPLIED_GROUPS, transitively); admins belong to every group.
 */
export function effectiveGroups(
  user: UserAccount,
  membership: Membership,
  allGroups: readonly GroupSummary[],
): GroupSummary[] {
  const direct = new Set(membership.memberOf);
  const granted = allGroups.filter((group) => direct.has(group.id) || isRegexpMember(group, user.id));
  if (granted.some((group) => group.name === ADMIN_GROUP)) return [...allGroups];
  return includedClosure(granted, allGroups, groupsIncluding(allGroups));
}

export function callerFor(user: UserAccount, membership: Membership, allGroups: readonly GroupSummary[]): Caller {
  const groups = effectiveGroups(user, membership, allGroups);
  const isAdmin = groups.some((group) => group.name === ADMIN_GROUP);
  const blessIds = new Set(membership.canBless);
  const blessGroups = allGroups.filter((group) => isAdmin || blessIds.has(group.id));
  return {
    user,
    groups: new Set(groups.map((group) => group.name)),
    blessGroups: new Set(blessGroups.map((group) => group.name)),
  };
}

export const isLoggedIn = (caller: Caller): caller is Caller & { user: UserAccount } => caller.user !== null;

export const inGroup = (caller: Caller, group: string): boolean => caller.groups.has(group);

export const canBless = (caller: Caller, group: string): boolean => caller.blessGroups.has(group);

/** A `:nick` in the real name (Mozilla's convention) wins; otherwise Bugzilla's rule, the login's local part. */
export function nickFor(user: Pick<UserAccount, 'login' | 'realName'>): string {
  const explicit = /:([\w.-]+)/.exec(user.realName);
  if (explicit) return explicit[1];
  return user.login.split('@')[0];
}
