import type { SearchIndex } from './searchIndex.ts';

/**
 * How many bugs use a catalogue value, whoever may see them: what an administrator is told before
 * a value is deleted, and why the delete is refused (Bugzilla counts every bug, private or not).
 * One pass over the index's columns; bugs keep values by id, so a renamed value still counts.
 */
export type ValueInUse =
  | { kind: 'product'; productId: number }
  | { kind: 'version'; versionId: number }
  | { kind: 'milestone'; milestoneId: number }
  | { kind: 'keyword'; keywordId: number }
  | { kind: 'flagType'; flagTypeId: number };

function countSlots(index: SearchIndex, test: (slot: number) => boolean): number {
  let count = 0;
  for (let slot = 0; slot < index.size; slot++) if (test(slot)) count++;
  return count;
}

/** The bugs that use the value (for a flag type: the bugs with a flag of it on the bug itself). */
export function bugsUsing(index: SearchIndex, value: ValueInUse): number {
  switch (value.kind) {
    case 'product':
      return countSlots(index, (slot) => index.productId[slot] === value.productId);
    case 'version':
      return countSlots(index, (slot) => index.versionId[slot] === value.versionId);
    case 'milestone':
      return countSlots(index, (slot) => index.targetMilestoneId[slot] === value.milestoneId);
    case 'keyword':
      return countSlots(index, (slot) => index.lists.keywordIds.includes(slot, value.keywordId));
    case 'flagType':
      return countSlots(index, (slot) => index.flags.get(slot).some((flag) => flag.typeId === value.flagTypeId));
  }
}

/** The ids of the bugs that have attachments: where an attachment flag type's flags can be. */
export function bugsWithAttachments(index: SearchIndex): number[] {
  const ids: number[] = [];
  for (let slot = 0; slot < index.size; slot++) if (index.attachmentCount[slot]! > 0) ids.push(index.id[slot]!);
  return ids;
}
