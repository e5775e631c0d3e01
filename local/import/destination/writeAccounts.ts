import { regexpMatchesLogin, regexpMembersOf } from '../../../shared/domain/identity/groupRegexps.ts';
import {
  listGroups,
  putNewGroup,
  type GroupRecord as TargetGroup,
} from '../../../shared/storage/identity/groupStore.ts';
import {
  accountItemKeys,
  deleteMembership,
  listAllUserRecords,
  putImportedUser,
  type UserRecord as TargetUser,
} from '../../../shared/storage/identity/userStore.ts';
import { collectItems, collectKeys, ItemCollector } from '../../../shared/storage/itemCollector.ts';
import type { ItemKey } from '../../../shared/storage/keys.ts';
import type { ReportBuilder } from '../report.ts';
import type { GroupRecord, UserRecord } from '../source/index.ts';
import type { IdMaps } from './idMaps.ts';
import type { TargetWriter } from './targetWriter.ts';

/**
 * Groups and users, with the source's ids: groups with description, regexp (its members derived
 * here as Tracker keeps them), active and bug-group flags; users with login, real name, e-mail
 * setting, disabled state and text, and their groups. No password comes across (REST never gives
 * one): a user keeps a password only where the target already had the same person (same id and
 * login), as a freshly bootstrapped target's administrator when the source's has the same login.
 *
 * REST tells no direct membership from a derived one: every group a user is in becomes a direct
 * membership, except those the group's own regexp explains (they stay derived, as in Bugzilla).
 *
 * The target's own accounts: one whose id a source user takes with another login, or whose login
 * a source user takes with another id, is replaced, with its API keys and sessions (none of its
 * credentials may let anyone in as the user who takes its place); the report lists them. Others
 * are kept. Target groups named like a source group of another id are replaced the same way.
 */
export async function writeAccounts(
  groups: readonly GroupRecord[],
  users: readonly UserRecord[],
  context: { ids: IdMaps; writer: TargetWriter; report: ReportBuilder; now: string },
): Promise<{ usersWithoutPassword: number }> {
  const { ids, writer, report } = context;
  const [targetGroups, targetUsers] = await Promise.all([listGroups(), listAllUserRecords()]);
  const puts: Array<Record<string, unknown> & ItemKey> = [];
  const deletes: ItemKey[] = [];

  // Users first in memory: group regexps are matched against every login the target will have.
  const sourceById = new Map(users.map((user) => [user.id, user]));
  const sourceByLogin = new Map(users.map((user) => [user.login.toLowerCase(), user]));
  const keptTargetUsers: TargetUser[] = [];
  const samePerson = new Map<number, TargetUser>();
  for (const target of targetUsers) {
    const { id, login } = target.user;
    const byId = sourceById.get(id);
    const byLogin = sourceByLogin.get(login.toLowerCase());
    if (byId && byId.login.toLowerCase() === login.toLowerCase()) samePerson.set(id, target);
    else if (byId || byLogin) {
      deletes.push(...(await accountItemKeys(id, login)));
      report.skip('target account', `${login} (id ${id})`, 'replaced by the source user with its id or login');
    } else keptTargetUsers.push(target);
  }
  const everyLogin = [
    ...users.map((user) => ({ id: user.id, login: user.login })),
    ...keptTargetUsers.map(({ user }) => ({ id: user.id, login: user.login })),
  ];

  for (const target of targetGroups) {
    const replaced = groups.find(
      (group) => group.id === target.id || group.name.toLowerCase() === target.name.toLowerCase(),
    );
    if (replaced && (replaced.id !== target.id || replaced.name.toLowerCase() !== target.name.toLowerCase()))
      deletes.push(...collectKeys((transaction) => putNewGroup(transaction, target)));
    if (!replaced) ids.addGroup(target.name, target.id);
  }
  const regexpOf = new Map<number, string>();
  for (const group of groups) {
    const previous = targetGroups.find((target) => target.id === group.id);
    const userRegexp = group.userRegexp ?? previous?.userRegexp ?? '';
    regexpOf.set(group.id, userRegexp);
    if (group.isBugGroup === null && !previous)
      report.skip(
        'group flag',
        group.name,
        'whether it is a bug group is unknown without creategroups: imported as not one',
      );
    const imported: TargetGroup = {
      id: group.id,
      name: group.name,
      description: group.description,
      isActive: group.isActive ?? previous?.isActive ?? true,
      isBugGroup: group.isBugGroup ?? previous?.isBugGroup ?? false,
      userRegexp,
      regexpMembers: regexpMembersOf(userRegexp, everyLogin),
      iconUrl: previous?.iconUrl ?? '',
      // Bugzilla's REST API does not expose group_group_map: inclusions made here are kept.
      memberGroups: previous?.memberGroups ?? [],
    };
    puts.push(...collectItems((transaction) => putNewGroup(transaction, imported)));
    ids.addGroup(group.name, group.id);
  }
  report.count('groups', groups.length);

  // Group member lists (editusers) and users' own group lists say the same from both sides.
  const groupsOfUser = new Map<number, Set<number>>();
  const addMembership = (userId: number, groupId: number | undefined) => {
    if (groupId === undefined) return;
    const set = groupsOfUser.get(userId) ?? new Set<number>();
    groupsOfUser.set(userId, set);
    set.add(groupId);
  };
  for (const group of groups) for (const member of group.members ?? []) addMembership(member.id, group.id);
  for (const user of users) for (const group of user.groups ?? []) addMembership(user.id, ids.groupId(group.name));

  let usersWithoutPassword = 0;
  for (const user of users) {
    const kept = samePerson.get(user.id);
    const memberOf = [...(groupsOfUser.get(user.id) ?? [])]
      .filter((groupId) => !regexpMatchesLogin(regexpOf.get(groupId) ?? '', user.login))
      .sort((a, b) => a - b);
    const disabledText =
      user.loginDeniedText || (user.canLogin === false ? 'This account was disabled on the source Bugzilla.' : '');
    if (!kept?.user.passwordHash) usersWithoutPassword++;
    const collector = new ItemCollector();
    putImportedUser(collector, {
      id: user.id,
      login: user.login,
      realName: user.realName,
      passwordHash: kept?.user.passwordHash,
      createdAt: context.now,
      memberOf,
      disabledText,
      emailEnabled: user.emailEnabled ?? kept?.user.emailEnabled ?? true,
    });
    for (const groupId of kept?.membership.memberOf ?? [])
      if (!memberOf.includes(groupId)) deleteMembership(collector, user.id, groupId);
    puts.push(...collector.puts);
    deletes.push(...collector.deletes);
    ids.addUser(user.login, user.id);
  }
  for (const { user } of keptTargetUsers) ids.addUser(user.login, user.id);
  report.count('users', users.length);
  await writer.write(puts, deletes);
  await writer.advance('user', Math.max(0, ...users.map((user) => user.id)));
  await writer.advance('group', Math.max(0, ...groups.map((group) => group.id)));
  await writer.moveStamp({ catalog: true, users: true });
  return { usersWithoutPassword };
}
