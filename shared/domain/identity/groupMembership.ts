import { errors } from '../../errors.ts';
import type { Caller, GroupSummary } from './caller.ts';
import { ADMIN_GROUP, canBless, inGroup } from './caller.ts';

/**
 * Bugzilla's rules for changing a user's groups or bless rights with `{add, remove, set}`:
 * `set` wins over add/remove and never drops groups the caller cannot bless; a group both added
 * and removed is added; naming a group the caller may not bless is refused.
 */
export interface MembershipRequest {
  add?: ReadonlyArray<string | number>;
  remove?: ReadonlyArray<string | number>;
  set?: ReadonlyArray<string | number>;
}

export interface MembershipPlan {
  final: number[];
  added: GroupSummary[];
  removed: GroupSummary[];
}

export function resolveGroup(reference: string | number, groups: readonly GroupSummary[]): GroupSummary {
  const byId =
    typeof reference === 'number' || /^\d+$/.test(reference)
      ? groups.find((group) => group.id === Number(reference))
      : undefined;
  const found = byId ?? groups.find((group) => group.name === String(reference));
  if (!found) throw errors.notFoundByNameOrNumber('group', reference);
  return found;
}

export type MembershipKind = 'groups' | 'bless_groups';

/** Who may grant a group (membership) or the right to grant it (bless): Bugzilla lets only admins hand out bless rights. */
function mayChange(caller: Caller, group: GroupSummary, kind: MembershipKind): boolean {
  return kind === 'groups' ? canBless(caller, group.name) : inGroup(caller, ADMIN_GROUP);
}

export function planMembership(
  caller: Caller,
  current: readonly number[],
  request: MembershipRequest,
  groups: readonly GroupSummary[],
  kind: MembershipKind,
): MembershipPlan {
  const check = (references: ReadonlyArray<string | number> | undefined) =>
    (references ?? []).map((reference) => {
      const group = resolveGroup(reference, groups);
      if (!mayChange(caller, group, kind)) {
        throw errors.authorizationRequired(
          `You are not authorized to change ${kind === 'groups' ? 'membership of' : 'bless rights on'} the group '${group.name}'.`,
        );
      }
      return group.id;
    });

  const before = new Set(current);
  let after: Set<number>;
  if (request.set !== undefined) {
    const untouchable = current.filter((id) => {
      const group = groups.find((candidate) => candidate.id === id);
      return group !== undefined && !mayChange(caller, group, kind);
    });
    after = new Set([...check(request.set), ...untouchable]);
  } else {
    const added = check(request.add);
    const removed = check(request.remove);
    after = new Set(current);
    for (const id of removed) after.delete(id);
    for (const id of added) after.add(id);
  }
  const byId = (id: number) => groups.find((group) => group.id === id)!;
  return {
    final: [...after].sort((a, b) => a - b),
    added: [...after].filter((id) => !before.has(id)).map(byId),
    removed: [...before].filter((id) => !after.has(id) && groups.some((group) => group.id === id)).map(byId),
  };
}
