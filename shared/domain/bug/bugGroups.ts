import { errors } from '../../errors.ts';
import type { ControlValue, ProductRecord } from '../catalog/catalog.ts';
import { type Caller, type GroupSummary, inGroup } from '../identity/caller.ts';

/**
 * Which bug groups a product's group controls allow, impose and propose for a given caller
 * (Bugzilla's membercontrol for members of the group, othercontrol for everyone else).
 */
export function productGroupRules(caller: Caller, record: ProductRecord, groups: readonly GroupSummary[]) {
  const groupById = new Map(groups.map((group) => [group.id, group]));
  const controlFor = (groupId: number): ControlValue => {
    const control = record.groupControls.find((candidate) => candidate.groupId === groupId);
    if (!control) return 'NA';
    const group = groupById.get(groupId);
    return group && inGroup(caller, group.name) ? control.memberControl : control.otherControl;
  };
  const activeBugGroup = (groupId: number) => {
    const group = groupById.get(groupId);
    return group?.isBugGroup === true && group.isActive;
  };
  const controlled = record.groupControls.map((control) => control.groupId).filter(activeBugGroup);
  const mandatory = controlled.filter((groupId) => controlFor(groupId) === 'MANDATORY');
  /** Groups the caller may put a bug of this product in or take it out of. */
  const settable = controlled.filter((groupId) => ['SHOWN', 'DEFAULT'].includes(controlFor(groupId)));

  const resolve = (name: string): number => {
    const group = groups.find((candidate) => candidate.name === name || String(candidate.id) === name);
    if (!group || !activeBugGroup(group.id))
      throw errors.invalidBugGroup(
        `There is no bug group named '${name}', or it cannot restrict bugs of the product ${record.product.name}.`,
      );
    return group.id;
  };

  return {
    mandatory,
    settable,
    resolve,
    /** A new bug's groups: those asked for (each must be settable) or else the DEFAULT ones, plus the MANDATORY ones. */
    groupsForNewBug(requested: readonly string[] | undefined): number[] {
      const chosen =
        requested === undefined
          ? controlled.filter((groupId) => controlFor(groupId) === 'DEFAULT')
          : requested.map((name) => {
              const id = resolve(name);
              if (!settable.includes(id) && !mandatory.includes(id)) {
                throw errors.bugGroupNotAllowed(name, record.product.name);
              }
              return id;
            });
      return [...new Set([...chosen, ...mandatory])].sort((a, b) => a - b);
    },
    /**
     * Why the caller may not put an existing bug in this group, or null (Bugzilla's add_group):
     * the group must be settable in the product, and someone outside the group may add it only
     * while moving the bug to another product, where its othercontrol is not NA.
     */
    refusesAdding(groupId: number, productChanged: boolean): string | null {
      if (!settable.includes(groupId) && !mandatory.includes(groupId))
        return 'The product does not let you restrict its bugs to this group.';
      const group = groupById.get(groupId);
      if (group && inGroup(caller, group.name)) return null;
      const control = record.groupControls.find((candidate) => candidate.groupId === groupId);
      if (!productChanged || !control || control.otherControl === 'NA')
        return 'Only members of the group may restrict a bug to it (others only while moving the bug to another product).';
      return null;
    },
    /**
     * Why the caller may not take an existing bug out of this group, or null (Bugzilla's
     * remove_group): a group the product does not use can always be removed; nobody removes one
     * that is mandatory for members while it is active, and someone outside the group only while
     * moving the bug to another product, where its othercontrol is neither MANDATORY nor NA.
     */
    refusesRemoving(groupId: number, productChanged: boolean): string | null {
      const control = record.groupControls.find((candidate) => candidate.groupId === groupId);
      const group = groupById.get(groupId);
      if (!control || !group) return null;
      if (mandatory.includes(groupId) || (control.memberControl === 'MANDATORY' && group.isActive))
        return 'The group is mandatory for bugs of the product.';
      if (inGroup(caller, group.name)) return null;
      if (!productChanged || control.otherControl === 'MANDATORY' || control.otherControl === 'NA')
        return 'Only members of the group may remove a bug from it (others only while moving the bug to another product).';
      return null;
    },
    /** Whether the product allows a bug to stay in this group (any control but NA, for someone). */
    allows(groupId: number): boolean {
      const control = record.groupControls.find((candidate) => candidate.groupId === groupId);
      return (
        control !== undefined &&
        activeBugGroup(groupId) &&
        (control.memberControl !== 'NA' || control.otherControl !== 'NA')
      );
    },
  };
}
