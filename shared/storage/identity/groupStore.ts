/**
 * Group items and their name guards, and the members put directly in a group: the group half of
 * the identity data. Regexp members are kept on the group item (derived in application/identity):
 * the bitmap `regexpMembers`, plus the number set `regexpJoined` of users who joined since the
 * bitmap was last written. A join is an `ADD` to the set, which commutes with every other join, so
 * users created at the same moment do not invalidate each other (each would otherwise rewrite the
 * bitmap of every group they match, editbugs (`.*`) for all, at the group's revision); a write of
 * the bitmap folds in the joins it read and deletes exactly those from the set.
 */
import type { GroupSummary } from '../../domain/identity/caller.ts';
import { bitmapWith, bitmapWithAll } from '../../domain/identity/userIdBitmap.ts';
import { errors } from '../../errors.ts';
import { cachedCatalogRead } from '../catalog/catalogCache.ts';
import { keys } from '../keys.ts';
import { queryIndexPartition, queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';

export interface GroupRecord extends GroupSummary {
  iconUrl: string;
  /** Revision of the group item when read (absent: not yet revised), for updateAtRevision. */
  rev?: number;
  /** The ids of `regexpJoined` when read, already in `regexpMembers`: a write of the bitmap deletes them. */
  regexpJoined?: readonly number[];
}

/** How many joins a group keeps beside its bitmap before the next join folds them in (item size). */
const JOINED_LIMIT = 256;

const toGroup = (item: Record<string, unknown>): GroupRecord => {
  const joined = item.regexpJoined instanceof Set ? [...item.regexpJoined].map(Number) : [];
  return {
    id: Number(item.id),
    name: String(item.name),
    description: String(item.description ?? ''),
    isActive: item.isActive !== false,
    isBugGroup: item.isBugGroup === true,
    userRegexp: String(item.userRegexp ?? ''),
    // Members never derived stay so (bootstrap derives them from every user, joins included).
    regexpMembers: item.regexpMembers === undefined ? undefined : bitmapWithAll(String(item.regexpMembers), joined),
    iconUrl: String(item.iconUrl ?? ''),
    // Absent on groups stored before inclusions were kept: they include none.
    memberGroups: Array.isArray(item.memberGroups) ? item.memberGroups.map(Number) : [],
    rev: Number(item.rev ?? 0),
    regexpJoined: joined,
  };
};

/** The update clause that removes the joins a bitmap written from `group` already holds. */
function foldJoins(group: GroupRecord): { clause: string; values: Record<string, unknown> } {
  const joined = group.regexpJoined ?? [];
  return joined.length === 0
    ? { clause: '', values: {} }
    : { clause: ' DELETE regexpJoined :folded', values: { ':folded': new Set(joined) } };
}

export function listGroups(): Promise<GroupRecord[]> {
  return cachedCatalogRead('groups', async () => (await queryPartition(keys.groupsPartition)).map(toGroup));
}

/** Ids of the users put directly in a group (gsi1 `GROUP#<id>#MEMBERS`). */
export async function directMemberIds(groupId: number): Promise<number[]> {
  const items = await queryIndexPartition('gsi1', keys.groupMembersIndex(groupId));
  return items.map((item) => Number(item.userId));
}

export type NewGroup = GroupRecord;

const duplicateGroup = (name: string) => () => errors.groupExists(name);

export function putNewGroup(transaction: WriteTransaction, group: NewGroup): void {
  transaction.putNew(
    { ...keys.groupNameGuard(group.name), type: 'groupName', groupId: group.id },
    duplicateGroup(group.name),
  );
  transaction.putNew(
    { ...keys.group(group.id), type: 'group', ...group, rev: undefined, regexpJoined: undefined },
    duplicateGroup(group.name),
  );
}

export interface GroupUpdate {
  previous: GroupRecord;
  next: GroupRecord;
}

/**
 * A group's regexp members, rewritten (at the group's revision) from `group` as read: derived
 * afresh, or after a user left the group by changing login. `regexpMembers` must hold the joins read.
 */
export function addRegexpMembersUpdate(transaction: WriteTransaction, group: GroupRecord, regexpMembers: string): void {
  const fold = foldJoins(group);
  transaction.updateAtRevision(keys.group(group.id), group.rev ?? 0, {
    expression: `SET regexpMembers = :members${fold.clause}`,
    values: { ':members': regexpMembers, ...fold.values },
    membersOnly: true,
  });
}

/** A user (new, or with a new login) joins the group by its regexp: see the file's comment. */
export function addRegexpJoin(transaction: WriteTransaction, group: GroupRecord, userId: number): void {
  if (group.regexpMembers !== undefined && (group.regexpJoined?.length ?? 0) >= JOINED_LIMIT) {
    addRegexpMembersUpdate(transaction, group, bitmapWith(group.regexpMembers, userId, true));
    return;
  }
  transaction.update(keys.group(group.id), {
    expression: 'ADD regexpJoined :joined',
    values: { ':joined': new Set([userId]) },
    membersOnly: true,
  });
}

export function addGroupUpdate(transaction: WriteTransaction, { previous, next }: GroupUpdate): void {
  if (previous.name.toLowerCase() !== next.name.toLowerCase()) {
    transaction.delete(keys.groupNameGuard(previous.name));
    transaction.putNew(
      { ...keys.groupNameGuard(next.name), type: 'groupName', groupId: next.id },
      duplicateGroup(next.name),
    );
  }
  // A new regexp's members are derived from every user, under the users' count (requireStamp): no
  // join is left to keep. Otherwise the bitmap written back holds the joins read.
  const fold =
    next.userRegexp !== previous.userRegexp
      ? { clause: ' REMOVE regexpJoined', values: {} }
      : next.regexpMembers === undefined
        ? { clause: '', values: {} }
        : foldJoins(previous);
  transaction.updateAtRevision(keys.group(next.id), previous.rev ?? 0, {
    // Members are written only when derived: a group not yet derived stays so, for bootstrap to derive.
    expression: `SET #name = :name, description = :description, userRegexp = :userRegexp, isActive = :isActive, iconUrl = :iconUrl, memberGroups = :memberGroups${next.regexpMembers === undefined ? '' : ', regexpMembers = :regexpMembers'}${fold.clause}`,
    names: { '#name': 'name' },
    values: {
      ...fold.values,
      ...(next.regexpMembers === undefined ? {} : { ':regexpMembers': next.regexpMembers }),
      ':name': next.name,
      ':description': next.description,
      ':userRegexp': next.userRegexp,
      ':isActive': next.isActive,
      ':iconUrl': next.iconUrl,
      ':memberGroups': [...(next.memberGroups ?? [])],
    },
  });
}
