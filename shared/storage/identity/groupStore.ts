/**
 * Group items and their name guards, and the members put directly in a group: the group half of
 * the identity data. Regexp members are kept on the group item (derived in application/identity).
 */
import type { GroupSummary } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import { cachedCatalogRead } from '../catalog/catalogCache.ts';
import { keys } from '../keys.ts';
import { queryIndexPartition, queryPartition } from '../tableReads.ts';
import type { WriteTransaction } from '../transaction.ts';

export interface GroupRecord extends GroupSummary {
  iconUrl: string;
  /** Revision of the group item when read (absent: not yet revised), for updateAtRevision. */
  rev?: number;
}

const toGroup = (item: Record<string, unknown>): GroupRecord => ({
  id: Number(item.id),
  name: String(item.name),
  description: String(item.description ?? ''),
  isActive: item.isActive !== false,
  isBugGroup: item.isBugGroup === true,
  userRegexp: String(item.userRegexp ?? ''),
  regexpMembers: item.regexpMembers === undefined ? undefined : String(item.regexpMembers),
  iconUrl: String(item.iconUrl ?? ''),
  rev: Number(item.rev ?? 0),
});

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
  transaction.putNew({ ...keys.group(group.id), type: 'group', ...group, rev: undefined }, duplicateGroup(group.name));
}

export interface GroupUpdate {
  previous: GroupRecord;
  next: GroupRecord;
}

/** A group's regexp members after a user was created or changed login (at the group's revision). */
export function addRegexpMembersUpdate(transaction: WriteTransaction, group: GroupRecord, regexpMembers: string): void {
  transaction.updateAtRevision(keys.group(group.id), group.rev ?? 0, {
    expression: 'SET regexpMembers = :members',
    values: { ':members': regexpMembers },
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
  transaction.updateAtRevision(keys.group(next.id), previous.rev ?? 0, {
    // Members are written only when derived: a group not yet derived stays so, for bootstrap to derive.
    expression: `SET #name = :name, description = :description, userRegexp = :userRegexp, isActive = :isActive, iconUrl = :iconUrl${next.regexpMembers === undefined ? '' : ', regexpMembers = :regexpMembers'}`,
    names: { '#name': 'name' },
    values: {
      ...(next.regexpMembers === undefined ? {} : { ':regexpMembers': next.regexpMembers }),
      ':name': next.name,
      ':description': next.description,
      ':userRegexp': next.userRegexp,
      ':isActive': next.isActive,
      ':iconUrl': next.iconUrl,
    },
  });
}
