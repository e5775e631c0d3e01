import { errors } from '../../errors.ts';
import type { GroupSummary } from './caller.ts';
import { resolveGroup } from './groupMembership.ts';

/**
 * Tracker's extension of Update Group: which groups' members a group includes (Bugzilla's
 * editgroups "Groups That Are a Member of This Group"). Groups are named or numbered as in a
 * user's `groups` change; a group both added and removed is added, as there.
 */
export interface MemberGroupsChange {
  add?: ReadonlyArray<string | number>;
  remove?: ReadonlyArray<string | number>;
}

/** The ids of the groups `group` includes after the change, in the order of the group list. */
export function planMemberGroups(
  group: GroupSummary,
  change: MemberGroupsChange,
  groups: readonly GroupSummary[],
): number[] {
  const resolve = (references: ReadonlyArray<string | number> | undefined) =>
    (references ?? []).map((reference) => {
      const found = resolveGroup(reference, groups);
      if (found.id === group.id) throw errors.invalidParameter(`The group ${group.name} cannot include itself.`);
      return found.id;
    });
  const added = new Set(resolve(change.add));
  const removed = new Set(resolve(change.remove));
  const kept = new Set((group.memberGroups ?? []).filter((id) => !removed.has(id)));
  for (const id of added) kept.add(id);
  // Inclusions of a group since deleted would otherwise linger unseen.
  return groups.filter((other) => kept.has(other.id)).map((other) => other.id);
}
