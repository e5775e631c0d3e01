import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS,
  callerFor,
  canBless,
  effectiveGroups,
  type GroupSummary,
  inGroup,
  isLoggedIn,
  nickFor,
  type UserAccount,
} from '../../shared/domain/identity/caller.ts';
import { regexpMembersOf } from '../../shared/domain/identity/groupRegexps.ts';

const group = (id: number, name: string, userRegexp = ''): GroupSummary => ({
  id,
  name,
  description: `${name} group`,
  isActive: true,
  isBugGroup: false,
  userRegexp,
});

const ADMIN = group(1, 'admin');
const EDITBUGS = group(2, 'editbugs');
const TWEAKPARAMS = group(3, 'tweakparams');
const STAFF = group(4, 'staff', '@example\\.com$');
const BROKEN = group(5, 'broken', '(unclosed');
const ALL_GROUPS = [ADMIN, EDITBUGS, TWEAKPARAMS, STAFF, BROKEN];

const user = (login: string, realName = ''): UserAccount => ({
  id: 7,
  login,
  realName,
  disabledText: '',
  emailEnabled: true,
});

const names = (groups: GroupSummary[]) => groups.map((g) => g.name).sort();

/** The groups with their regexp members derived for these users, as the stores keep them. */
const derivedFor = (groups: readonly GroupSummary[], ...users: UserAccount[]) =>
  groups.map((g) => ({ ...g, regexpMembers: regexpMembersOf(g.userRegexp, users) }));

describe('effectiveGroups', () => {
  it('adds the system groups Bugzilla derives: editbugs and bz_canusewhineatothers give bz_canusewhines, bz_sudoers bz_sudo_protect', () => {
    const whines = group(10, 'bz_canusewhines');
    const atOthers = group(11, 'bz_canusewhineatothers');
    const sudoers = group(12, 'bz_sudoers');
    const protect = group(13, 'bz_sudo_protect');
    const groups = [...ALL_GROUPS, whines, atOthers, sudoers, protect];
    const groupsOf = (memberOf: number[], login = 'jane@other.org') =>
      names(effectiveGroups(user(login), { memberOf, canBless: [] }, groups));
    expect(groupsOf([EDITBUGS.id])).toEqual(['bz_canusewhines', 'editbugs']);
    expect(groupsOf([atOthers.id])).toEqual(['bz_canusewhineatothers', 'bz_canusewhines']);
    expect(groupsOf([sudoers.id])).toEqual(['bz_sudo_protect', 'bz_sudoers']);
    expect(groupsOf([TWEAKPARAMS.id])).toEqual(['tweakparams']);
    // Through a regexp as well as directly.
    const byRegexp = derivedFor(
      [...groups.filter((g) => g.id !== EDITBUGS.id), group(2, 'editbugs', '.*')],
      user('x@y.org'),
    );
    expect(names(effectiveGroups(user('x@y.org'), { memberOf: [], canBless: [] }, byRegexp))).toEqual([
      'bz_canusewhines',
      'editbugs',
    ]);
  });

  it('includes the groups the user was put in directly, and nothing else', () => {
    expect(
      names(effectiveGroups(user('jane@other.org'), { memberOf: [EDITBUGS.id], canBless: [] }, ALL_GROUPS)),
    ).toEqual(['editbugs']);
  });

  it('includes a group whose user_regexp matches the login, case-insensitively', () => {
    const regexpGroupsOf = (login: string) =>
      names(effectiveGroups(user(login), { memberOf: [], canBless: [] }, derivedFor(ALL_GROUPS, user(login))));
    expect(regexpGroupsOf('Jane@EXAMPLE.COM')).toEqual(['staff']);
    expect(regexpGroupsOf('jane@example.com.evil')).toEqual([]);
  });

  it('never matches an invalid user_regexp (and does not throw)', () => {
    expect(
      names(
        effectiveGroups(user('(unclosed'), { memberOf: [], canBless: [] }, derivedFor(ALL_GROUPS, user('(unclosed'))),
      ),
    ).toEqual([]);
  });

  it('takes regexp membership from the members derived on the group, not from matching the login again', () => {
    const jane = user('jane@example.com');
    // Derived for someone else (user 8): the matching login alone does not make user 7 a member.
    const derivedForOther = ALL_GROUPS.map((g) => ({
      ...g,
      regexpMembers: regexpMembersOf(g.userRegexp, [{ id: 8, login: 'jane@example.com' }]),
    }));
    expect(names(effectiveGroups(jane, { memberOf: [], canBless: [] }, derivedForOther))).toEqual([]);
    // Never derived (a group stored before members were kept): no regexp members yet.
    expect(names(effectiveGroups(jane, { memberOf: [], canBless: [] }, ALL_GROUPS))).toEqual([]);
    // A regexp cleared since: members left on the group grant nothing.
    const cleared = derivedFor(ALL_GROUPS, jane).map((g) => (g.name === 'staff' ? { ...g, userRegexp: '' } : g));
    expect(names(effectiveGroups(jane, { memberOf: [], canBless: [] }, cleared))).toEqual([]);
  });

  it('puts a direct member of admin in every group', () => {
    expect(names(effectiveGroups(user('root@other.org'), { memberOf: [ADMIN.id], canBless: [] }, ALL_GROUPS))).toEqual(
      names(ALL_GROUPS),
    );
  });

  it('ignores membership ids of groups that do not exist', () => {
    expect(effectiveGroups(user('jane@other.org'), { memberOf: [99], canBless: [] }, ALL_GROUPS)).toEqual([]);
  });
});

describe('callerFor', () => {
  it('builds a logged-in caller with group names and bless rights', () => {
    const jane = user('jane@other.org');
    const caller = callerFor(jane, { memberOf: [EDITBUGS.id], canBless: [TWEAKPARAMS.id] }, ALL_GROUPS);
    expect(isLoggedIn(caller)).toBe(true);
    expect(caller.user).toBe(jane);
    expect([...caller.groups]).toEqual(['editbugs']);
    expect([...caller.blessGroups]).toEqual(['tweakparams']);
    expect(inGroup(caller, 'editbugs')).toBe(true);
    expect(inGroup(caller, 'tweakparams')).toBe(false);
    expect(canBless(caller, 'tweakparams')).toBe(true);
    expect(canBless(caller, 'editbugs')).toBe(false);
  });

  it('gives an admin every group and the bless right on every group', () => {
    const caller = callerFor(user('root@other.org'), { memberOf: [ADMIN.id], canBless: [] }, ALL_GROUPS);
    expect([...caller.groups].sort()).toEqual(names(ALL_GROUPS));
    expect([...caller.blessGroups].sort()).toEqual(names(ALL_GROUPS));
  });

  // BUG (shared/domain/identity/caller.ts:61, effectiveGroups): admin is detected from *direct* membership only, while
  // callerFor (line 67) detects it from the effective groups. A user who is in admin through admin's user_regexp
  // therefore gets the bless right on every group but is not a member of every group (not in tweakparams,
  // editbugs...), although "admins belong to every group" (the function's own comment; Bugzilla derives every
  // membership from admin, however admin was obtained).
  it('gives a user who is admin through a user_regexp every group, as it gives them every bless right', () => {
    const groups = derivedFor([group(1, 'admin', '^root@'), EDITBUGS, TWEAKPARAMS], user('root@example.org'));
    const caller = callerFor(user('root@example.org'), { memberOf: [], canBless: [] }, groups);
    expect([...caller.blessGroups].sort()).toEqual(['admin', 'editbugs', 'tweakparams']);
    expect([...caller.groups].sort()).toEqual(['admin', 'editbugs', 'tweakparams']);
  });

  it('ANONYMOUS is not logged in and in no group', () => {
    expect(isLoggedIn(ANONYMOUS)).toBe(false);
    expect(ANONYMOUS.groups.size + ANONYMOUS.blessGroups.size).toBe(0);
  });
});

describe('nickFor', () => {
  it("uses a ':nick' in the real name", () => {
    expect(nickFor(user('jane.doe@example.com', 'Jane Doe [:jdoe]'))).toBe('jdoe');
    expect(nickFor(user('jane.doe@example.com', 'Jane (:j.d-1) Doe'))).toBe('j.d-1');
  });

  it("otherwise uses the login's local part", () => {
    expect(nickFor(user('jane.doe@example.com', 'Jane Doe'))).toBe('jane.doe');
    expect(nickFor(user('jane.doe@example.com', 'Note: on leave'))).toBe('jane.doe');
  });
});

describe('group inclusions (memberGroups)', () => {
  const A = group(10, 'a');
  const B = { ...group(11, 'b'), memberGroups: [10] };
  const C = { ...group(12, 'c'), memberGroups: [11] };
  const member = (groupId: number) => ({ memberOf: [groupId], canBless: [] });

  it('follows a chain of inclusions', () => {
    expect(names(effectiveGroups(user('x@example.org'), member(10), [A, B, C]))).toEqual(['a', 'b', 'c']);
    expect(names(effectiveGroups(user('x@example.org'), member(11), [A, B, C]))).toEqual(['b', 'c']);
  });

  it('ends on a cycle', () => {
    const cyclicA = { ...A, memberGroups: [12] };
    expect(names(effectiveGroups(user('x@example.org'), member(11), [cyclicA, B, C]))).toEqual(['a', 'b', 'c']);
  });

  it('treats a group stored without inclusions as including none', () => {
    expect(
      names(effectiveGroups(user('x@example.org'), member(12), [A, { ...B, memberGroups: undefined }, C])),
    ).toEqual(['c']);
  });
});
