import { errors } from '../../errors.ts';
import type { Bug } from './bug.ts';
import { mayEditProductBugs } from './bugAccess.ts';
import { type BugNames, diffBugs } from './bugChanges.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import { applyStatusChange } from './bugStatusChange.ts';
import { syncRelations, type UpdateOutcome, type WorkingSet } from './bugWorkingSet.ts';
import { applyComment, commentInput } from './update/comment.ts';
import { applyFlags } from './update/flags.ts';
import { applyGroups, applyKeywords } from './update/keywordsAndGroups.ts';
import { applyPeople } from './update/people.ts';
import { checkFieldPermissions } from './update/permissions.ts';
import { applyPlacement } from './update/placement.ts';
import { applyCustomFields, applyPlainFields } from './update/plainFields.ts';
import { applyRelations } from './update/relations.ts';
import { applySeeAlso } from './update/seeAlso.ts';
import { applyTimeFields, applyWorkTime } from './update/timeTracking.ts';
import type { BugUpdateContext } from './update/updateContext.ts';

/**
 * Changing a bug (PUT /rest/bug): each rule of update/ checks its part of the request and applies
 * it to the bug in the working set (bugWorkingSet.ts); status and duplicates are bugStatusChange.ts's;
 * who may change each field is checked last. A refusal anywhere throws before anything is written.
 * The rules run in Bugzilla's order, so that a request with several faults gets its first one.
 */
export function applyBugUpdate(
  env: BugEnvironment,
  working: WorkingSet,
  original: ReadonlyMap<number, Bug>,
  bugId: number,
  input: Record<string, unknown>,
  names: BugNames,
): UpdateOutcome {
  const current = working.get(bugId)!;
  const oldRecord = env.products.find((candidate) => candidate.product.id === current.productId)!;
  if (!mayEditProductBugs(env.caller, oldRecord, env.groupName)) {
    throw errors.bugEditDenied(`You are not allowed to edit bugs of the product ${oldRecord.product.name}.`);
  }
  const context: BugUpdateContext = {
    env,
    working,
    input,
    names,
    bugId,
    current,
    next: structuredClone(current),
    oldRecord,
    record: oldRecord,
    outcome: { comments: [], dependencyRoots: [], duplicateLinks: [], extraHistory: new Map() },
  };
  const { next, outcome } = context;

  applyPlacement(context);
  applyPlainFields(context);
  applyTimeFields(context);
  applyCustomFields(context);
  applyPeople(context);
  applyKeywords(context);
  applyGroups(context);
  applySeeAlso(context);
  applyRelations(context);

  const comment = commentInput(input);
  applyStatusChange(env, working, next, current, input, outcome);
  // The workflow may require a comment for the move (Bugzilla's comment_required_on_change_from).
  env.values.requireComment(current.status, next.status, comment?.body);
  applyFlags(context);
  applyComment(context, comment);
  applyWorkTime(context);

  const { caller, parameters } = env;
  checkFieldPermissions(
    { caller, bug: original.get(bugId)!, record: oldRecord, groupName: env.groupName, parameters, values: env.values },
    diffBugs(current, next, names),
    caller.user.id,
    names,
  );

  working.set(bugId, next);
  syncRelations(working, current, next);
  return outcome;
}
