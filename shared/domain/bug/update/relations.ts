import { errors } from '../../../errors.ts';
import { sortedIds } from '../bug.ts';
import { applyListChange, checkBugReference, type ListChange, parseListChange } from '../bugFieldRules.ts';
import { RELATIONS, requireVisible } from '../bugWorkingSet.ts';
import type { BugUpdateContext } from './updateContext.ts';

/**
 * Depends on, blocks, regressed by and regressions: a bug added must exist and be visible, a bug
 * is never in its own lists nor both above and below another. A dependency added makes the bug a
 * root of the dependency check that follows the request (bugWriting.ts).
 */
export function applyRelations({ env, working, input, current, next, bugId, outcome }: BugUpdateContext): void {
  for (const [field, key] of RELATIONS) {
    if (input[field] === undefined) continue;
    const change: ListChange<number> = parseListChange(field, input[field], (value) => checkBugReference(field, value));
    const wanted = sortedIds(applyListChange(next[key], change));
    if (wanted.includes(bugId)) {
      const ownListError =
        field === 'depends_on' || field === 'blocks' ? errors.dependencyLoop : errors.invalidParameter;
      throw ownListError(`A bug cannot be in its own ${field} list.`);
    }
    for (const other of wanted.filter((id) => !next[key].includes(id))) requireVisible(env, working, other, field);
    next[key] = wanted;
  }
  if (next.dependsOn.some((other) => next.blocks.includes(other))) throw errors.dependsOnAndBlocks();
  if (next.regressedBy.some((other) => next.regressions.includes(other))) throw errors.regressedByAndRegressions();
  if (
    next.dependsOn.some((id) => !current.dependsOn.includes(id)) ||
    next.blocks.some((id) => !current.blocks.includes(id))
  )
    outcome.dependencyRoots.push(bugId);
}
