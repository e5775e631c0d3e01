import { errors } from '../../errors.ts';
import { type Bug, type HistoryChange, type NewComment, sortedIds } from './bug.ts';
import { canSeeBug } from './bugAccess.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import { checkBugReference, localBugIdOf, parseListChange } from './bugFieldRules.ts';

/**
 * The working set a bug update changes: the bugs named plus every bug a relation or a duplicate
 * touches, loaded first and changed together, so both sides of every relation stay in step and
 * one transaction writes exactly what changed (docs/data-model.md).
 */
export type WorkingSet = Map<number, Bug>;

export interface UpdateOutcome {
  comments: NewComment[];
  /** Bugs whose dependencies grew: the writer must prove they form no loop. */
  dependencyRoots: number[];
  /** Bugs newly marked duplicates: the writer must prove the chain of duplicates has no loop. */
  duplicateLinks: Array<{ bugId: number; dupeOf: number }>;
  /** Changes that go to the history but never to `changes` (work_time). */
  extraHistory: Map<number, HistoryChange[]>;
}

/** Each relation: its request field, its key on the bug, and the key of the reverse side. */
export const RELATIONS = [
  ['depends_on', 'dependsOn', 'blocks'],
  ['blocks', 'blocks', 'dependsOn'],
  ['regressed_by', 'regressedBy', 'regressions'],
  ['regressions', 'regressions', 'regressedBy'],
] as const;

/** Bug ids a request may touch besides its targets, so the caller can load them first. */
export function relatedBugIds(input: Record<string, unknown>, bug: Bug, urlbase = ''): number[] {
  const ids = new Set<number>();
  // See Also links to bugs of this installation are mirrored on them (bugUpdate.ts).
  if (input.see_also !== undefined) {
    const change = parseListChange('see_also', input.see_also, (value) => String(value ?? '').trim());
    for (const url of [...change.add, ...change.remove, ...(change.set ?? []), ...bug.seeAlso]) {
      const id = localBugIdOf(url, urlbase);
      if (id !== null) ids.add(id);
    }
  }
  for (const [field, key] of RELATIONS) {
    if (input[field] === undefined) continue;
    const change = parseListChange(field, input[field], (value) => checkBugReference(field, value));
    for (const id of [...change.add, ...change.remove, ...(change.set ?? [])]) ids.add(id);
    for (const id of bug[key]) ids.add(id);
  }
  const dupeOf = input.dupe_of;
  if (dupeOf !== undefined && dupeOf !== null && dupeOf !== '') ids.add(checkBugReference('dupe_of', dupeOf));
  if (bug.dupeOf !== null) ids.add(bug.dupeOf);
  ids.delete(bug.id);
  return [...ids];
}

/** A bug a request names in `field`: 101 if it does not exist, 102 if the caller may not see it. */
export function requireVisible(env: BugEnvironment, working: WorkingSet, otherId: number, field: string): Bug {
  const other = working.get(otherId);
  if (!other) throw errors.relatedBugNotFound(otherId, field);
  if (!canSeeBug(env.caller, other, env.groupName, env.parameters.or_groups === '1'))
    throw errors.relatedBugAccessDenied(otherId, field);
  return other;
}

/** Takes a bug off its duplicate target's list when it stops being a duplicate. */
export function unlinkDuplicate(working: WorkingSet, next: Bug): void {
  if (next.dupeOf === null) return;
  const target = working.get(next.dupeOf);
  if (target) working.set(target.id, { ...target, duplicates: target.duplicates.filter((id) => id !== next.id) });
  next.dupeOf = null;
}

/** Keeps both sides of every relation in step: A depends on B exactly when B blocks A. */
export function syncRelations(working: WorkingSet, before: Bug, after: Bug): void {
  for (const [, key, reverse] of RELATIONS) {
    const added = after[key].filter((id) => !before[key].includes(id));
    const removed = before[key].filter((id) => !after[key].includes(id));
    for (const id of added) {
      const other = working.get(id);
      if (!other) throw errors.bugNotFound(id);
      if (!other[reverse].includes(after.id))
        working.set(id, { ...other, [reverse]: sortedIds([...other[reverse], after.id]) });
    }
    for (const id of removed) {
      const other = working.get(id);
      if (other?.[reverse].includes(after.id))
        working.set(id, { ...other, [reverse]: other[reverse].filter((entry) => entry !== after.id) });
    }
  }
}
