/**
 * Which index rows the caller may see: Bugzilla's can_see_bug over the whole index at once,
 * applied to a search's matches before they are counted or shown.
 */

import { CC_ACCESSIBLE_BIT, CREATOR_ACCESSIBLE_BIT } from '../index/columns.ts';
import type { SearchIndex } from '../index/searchIndex.ts';

/** Bugzilla's can_see_bug over index rows (bugAccess.ts canSeeBug holds the same rule for one bug). */
export function visibilityTest(
  index: SearchIndex,
  callerId: number,
  callerGroupIds: ReadonlySet<number>,
  orGroups: boolean,
): (slot: number) => boolean {
  const groups = index.lists.groupIds;
  return (slot) => {
    if (groups.length(slot) === 0) return true;
    if (callerId === 0) return false;
    if (index.assigneeId[slot] === callerId || index.qaContactId[slot] === callerId) return true;
    const bits = index.bits[slot];
    if ((bits & CREATOR_ACCESSIBLE_BIT) !== 0 && index.reporterId[slot] === callerId) return true;
    if ((bits & CC_ACCESSIBLE_BIT) !== 0 && index.lists.ccIds.includes(slot, callerId)) return true;
    const member = (id: number) => callerGroupIds.has(id);
    return orGroups ? groups.some(slot, member) : groups.every(slot, member);
  };
}
