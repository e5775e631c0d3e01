import { flagText } from '../../domain/changeReport.ts';
import { ADMIN_GROUP, type Caller, effectiveGroups, groupsLeadingTo, inGroup } from '../../domain/identity/caller.ts';
import { type MemberGroupsChange, planMemberGroups } from '../../domain/identity/groupInclusion.ts';
import { resolveGroup } from '../../domain/identity/groupMembership.ts';
import { checkUserRegexp, regexpMembersOf } from '../../domain/identity/groupRegexps.ts';
import {
  CREATEGROUPS_GROUP,
  checkGroupDescription,
  checkGroupName,
  checkIconUrl,
  groupView,
  isSystemGroup,
  mayListGroups,
  mayViewGroup,
} from '../../domain/identity/groupRules.ts';
import { bitmapIds } from '../../domain/identity/userIdBitmap.ts';
import { AUDIT_CLASS } from '../../domain/instance/audit.ts';
import { errors } from '../../errors.ts';
import { currentStamp } from '../../storage/catalog/catalogCache.ts';
import { allocateId } from '../../storage/counterStore.ts';
import {
  addGroupUpdate,
  directMemberIds,
  type GroupRecord,
  listGroups,
  putNewGroup,
} from '../../storage/identity/groupStore.ts';
import { getUserRecords, listUserLoginsConsistently } from '../../storage/identity/userStore.ts';
import { recordAudit } from '../../storage/instance/auditStore.ts';
import { retryOnConflict, WriteTransaction } from '../../storage/transaction.ts';

/** Groups: creation and updates (creategroups) and lookup with the spec's visibility rules. */

export interface NewGroupInput {
  name?: string;
  description?: string;
  user_regexp?: string;
  is_active?: boolean;
  icon_url?: string;
}

export interface GroupChangeInput extends NewGroupInput {
  /** Tracker's extension: the groups whose members this group includes. */
  member_groups?: MemberGroupsChange;
}

export async function createGroup(caller: Caller, input: NewGroupInput): Promise<{ id: number }> {
  const name = checkGroupName(input.name);
  const description = checkGroupDescription(input.description);
  const userRegexp = checkUserRegexp(input.user_regexp);
  const iconUrl = checkIconUrl(input.icon_url) ?? '';
  if ((await listGroups()).some((group) => group.name.toLowerCase() === name.toLowerCase())) {
    throw errors.groupExists(name);
  }
  const id = await allocateId('group');
  const now = new Date();
  await retryOnConflict(async () => {
    const transaction = new WriteTransaction();
    const regexpMembers =
      userRegexp === '' ? '' : regexpMembersOf(userRegexp, await everyUserToDeriveFrom(transaction));
    putNewGroup(transaction, {
      id,
      name,
      description,
      userRegexp,
      regexpMembers,
      isActive: input.is_active ?? true,
      isBugGroup: true,
      iconUrl,
    });
    recordAudit(transaction, {
      auditClass: AUDIT_CLASS.group,
      objectId: id,
      userId: caller.user!.id,
      changes: { __create__: { removed: '', added: name } },
      at: now,
    });
    await transaction.commit();
  });
  return { id };
}

/**
 * Every user, for deriving a regexp's members; the transaction then lands only if no user was
 * created or changed since they were read (a new login the pattern matches would be missed).
 */
export async function everyUserToDeriveFrom(
  transaction: WriteTransaction,
): Promise<Array<{ id: number; login: string }>> {
  transaction.requireStamp({ users: (await currentStamp()).users });
  return listUserLoginsConsistently();
}

function targetGroups(groups: readonly GroupRecord[], targets: { ids: number[]; names: string[] }): GroupRecord[] {
  const found = [...targets.ids, ...targets.names].map((reference) => resolveGroup(reference, groups) as GroupRecord);
  return found.filter((group, index) => found.findIndex((other) => other.id === group.id) === index);
}

/** Re-read and re-applied when another request changed one of the groups meanwhile (see retryOnConflict). */
export function updateGroups(caller: Caller, targets: { ids: number[]; names: string[] }, input: GroupChangeInput) {
  return retryOnConflict(() => updateGroupsOnce(caller, targets, input));
}

async function updateGroupsOnce(caller: Caller, targets: { ids: number[]; names: string[] }, input: GroupChangeInput) {
  const groups = await listGroups();
  const selected = targetGroups(groups, targets);
  if (selected.length === 0) throw errors.idsOrNamesRequired();
  if (input.name !== undefined && selected.length > 1)
    throw errors.invalidParameter('You cannot change the name of several groups at once.');
  const now = new Date();
  const transaction = new WriteTransaction();
  const updates: Array<{ previous: GroupRecord; next: GroupRecord }> = [];
  const results = selected.map((previous) => {
    const next: GroupRecord = {
      ...previous,
      name: input.name !== undefined ? checkGroupName(input.name) : previous.name,
      description: input.description !== undefined ? checkGroupDescription(input.description) : previous.description,
      userRegexp: input.user_regexp !== undefined ? checkUserRegexp(input.user_regexp) : previous.userRegexp,
      isActive: input.is_active ?? previous.isActive,
      iconUrl: checkIconUrl(input.icon_url) ?? previous.iconUrl,
      memberGroups:
        input.member_groups === undefined
          ? previous.memberGroups
          : planMemberGroups(previous, input.member_groups, groups),
    };
    if (next.name !== previous.name) {
      if (isSystemGroup(previous.name))
        throw errors.invalidParameter(`The group ${previous.name} is a system group and cannot be renamed.`);
      if (groups.some((group) => group.id !== previous.id && group.name.toLowerCase() === next.name.toLowerCase())) {
        throw errors.groupExists(next.name);
      }
    }
    const changes: Record<string, { removed: string; added: string }> = {};
    if (next.name !== previous.name) changes.name = { removed: previous.name, added: next.name };
    if (next.description !== previous.description)
      changes.description = { removed: previous.description, added: next.description };
    if (next.userRegexp !== previous.userRegexp)
      changes.user_regexp = { removed: previous.userRegexp, added: next.userRegexp };
    if (next.isActive !== previous.isActive)
      changes.is_active = { removed: flagText(previous.isActive), added: flagText(next.isActive) };
    if (next.iconUrl !== previous.iconUrl) changes.icon_url = { removed: previous.iconUrl, added: next.iconUrl };
    const memberGroups = memberGroupsChange(previous, next, groups);
    if (memberGroups) changes.member_groups = memberGroups;
    if (Object.keys(changes).length > 0) {
      updates.push({ previous, next });
      recordAudit(transaction, {
        auditClass: AUDIT_CLASS.group,
        objectId: previous.id,
        userId: caller.user!.id,
        changes,
        at: now,
      });
    }
    return { id: previous.id, changes };
  });
  const regexpChanged = updates
    .filter(({ previous, next }) => next.userRegexp !== previous.userRegexp)
    .map(({ next }) => next);
  // A cleared regexp has no members; only a new pattern needs every user.
  const users = regexpChanged.some((group) => group.userRegexp !== '') ? await everyUserToDeriveFrom(transaction) : [];
  for (const group of regexpChanged) group.regexpMembers = regexpMembersOf(group.userRegexp, users);
  for (const update of updates) addGroupUpdate(transaction, update);
  await transaction.commit();
  return { groups: results };
}

export async function findGroups(caller: Caller, query: { ids?: number[]; names?: string[]; membership?: boolean }) {
  if (!mayListGroups(caller)) {
    throw errors.groupViewDenied(
      'You do not have permission to view groups: you need creategroups or editusers, or bless rights on a group.',
    );
  }
  const groups = await listGroups();
  const ids = query.ids ?? [];
  const names = query.names ?? [];
  for (const name of names) {
    if (!groups.some((group) => group.name === name)) throw errors.notFoundByName('group', name);
  }
  const requested =
    ids.length === 0 && names.length === 0
      ? groups
      : groups.filter((group) => ids.includes(group.id) || names.includes(group.name));
  const allVisible = inGroup(caller, CREATEGROUPS_GROUP) || inGroup(caller, 'editusers');
  const visible = requested.filter((group) => allVisible || mayViewGroup(caller, group)).sort((a, b) => a.id - b.id);

  // Members are whoever effectiveGroups puts in the group, the one definition of membership that
  // permission checks use too: direct and regexp members of the group itself, of the groups it
  // includes, however indirectly (member_groups, and editbugs -> bz_canusewhines, ...) and of admin.
  const sourcesOf = (group: GroupRecord) => {
    const leading = new Set(groupsLeadingTo(group, groups).map((other) => other.id));
    return groups.filter((other) => leading.has(other.id) || other.name === ADMIN_GROUP);
  };
  const views = await Promise.all(
    visible.map(async (group) => {
      if (!query.membership) return groupView(caller, group, groups);
      const sources = sourcesOf(group);
      const direct = (await Promise.all(sources.map((source) => directMemberIds(source.id)))).flat();
      const byRegexp = sources.flatMap((source) =>
        source.userRegexp === '' ? [] : bitmapIds(source.regexpMembers ?? ''),
      );
      const candidates = await getUserRecords([...new Set([...direct, ...byRegexp])]);
      const members = candidates.filter(({ user, membership }) =>
        effectiveGroups(user, membership, groups).some((member) => member.id === group.id),
      );
      return groupView(
        caller,
        group,
        groups,
        members.map((record) => record.user).sort((a, b) => a.id - b.id),
      );
    }),
  );
  return { groups: views };
}

/** The member_groups change of one group as names, `removed` and `added`; undefined when none. */
function memberGroupsChange(
  previous: GroupRecord,
  next: GroupRecord,
  groups: readonly GroupRecord[],
): { removed: string; added: string } | undefined {
  const before = new Set(previous.memberGroups ?? []);
  const after = new Set(next.memberGroups ?? []);
  const namesOf = (ids: number[]) =>
    groups
      .filter((group) => ids.includes(group.id))
      .map((group) => group.name)
      .join(', ');
  const removed = namesOf([...before].filter((id) => !after.has(id)));
  const added = namesOf([...after].filter((id) => !before.has(id)));
  return removed === '' && added === '' ? undefined : { removed, added };
}
