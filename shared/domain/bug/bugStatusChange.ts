import { errors } from '../../errors.ts';
import { type Bug, sortedIds } from './bug.ts';
import { canSeeBug } from './bugAccess.ts';
import type { BugEnvironment } from './bugEnvironment.ts';
import { checkBugReference } from './bugFieldRules.ts';
import { DUPLICATE, NO_RESOLUTION, UNCONFIRMED } from './bugWorkflow.ts';
import { requireVisible, type UpdateOutcome, unlinkDuplicate, type WorkingSet } from './bugWorkingSet.ts';

/**
 * A bug update's status, resolution and duplicate: Bugzilla's workflow rules (legal transitions,
 * a closed bug needs a resolution, an open one has none), and marking a duplicate, which also
 * changes its target and leaves a comment on both bugs.
 */

const present = (value: unknown) => value !== undefined && value !== null;

export function applyStatusChange(
  env: BugEnvironment,
  working: WorkingSet,
  next: Bug,
  current: Bug,
  input: Record<string, unknown>,
  outcome: UpdateOutcome,
): void {
  const me = env.caller.user.id;
  // The installation's statuses, resolutions and moves (catalog/fieldValues.ts).
  const { values } = env;
  const isOpenStatus = (status: string) => values.isOpen(status);
  const canChangeStatus = (from: string, to: string) => values.canChange(from, to);
  const wantsDupe = present(input.dupe_of) && input.dupe_of !== '';
  const statusInput = present(input.status) ? values.canonicalStatus(String(input.status), current.status) : undefined;
  // Resolutions are matched without regard to case, as Bugzilla's lookups are, and kept as the installation names them.
  const resolutionText = input.resolution === undefined ? undefined : String(input.resolution ?? '').trim();
  const resolutionInput =
    resolutionText === undefined
      ? undefined
      : (values.named('resolution', resolutionText)?.name ?? resolutionText.toUpperCase());

  if (statusInput !== undefined) {
    if (!values.isKnownStatus(statusInput)) throw errors.notFoundByName('status', String(input.status));
    if (!canChangeStatus(current.status, statusInput)) throw errors.statusChangeDenied(current.status, statusInput);
  }
  if (resolutionInput !== undefined && resolutionInput !== NO_RESOLUTION) {
    if (!values.named('resolution', resolutionInput))
      throw errors.notFoundByName('resolution', String(input.resolution));
    // A disabled resolution may stay on a bug that has it, not be given anew.
    values.check('resolution', 'resolution', resolutionInput, current.resolution);
  }

  // Bugzilla 5.2 sets dup_id whenever the parameter exists (unless the bug reopens), and an empty
  // one is its code error undefined_field (50).
  if ('dupe_of' in input && !wantsDupe && !(statusInput !== undefined && isOpenStatus(statusInput)))
    throw errors.missingParameter('Form field dup_id was not defined. (dupe_of needs the id or alias of a bug.)');

  if (wantsDupe) {
    const target = checkBugReference('dupe_of', input.dupe_of);
    if (target === current.id) throw errors.duplicateOfItself();
    const targetBug = requireVisible(env, working, target, 'dupe_of');
    if (statusInput !== undefined && isOpenStatus(statusInput))
      throw errors.invalidParameter('A bug marked as a duplicate cannot stay open.');
    if (resolutionInput !== undefined && resolutionInput !== DUPLICATE)
      throw errors.invalidParameter('A bug marked as a duplicate must have the resolution DUPLICATE.');
    // An open bug closes in the installation's duplicate status; a closed one keeps its status.
    // A status given with the request applies even when the bug already duplicates the target.
    const status =
      statusInput ??
      (isOpenStatus(current.status)
        ? values.duplicateStatus(env.parameters.duplicate_or_move_bug_status)
        : current.status);
    if (!canChangeStatus(current.status, status)) throw errors.statusChangeDenied(current.status, status);
    next.status = status;
    if (next.dupeOf !== target) {
      next.resolution = DUPLICATE;
      unlinkDuplicate(working, next);
      next.dupeOf = target;
      const updatedTarget = structuredClone(working.get(target) ?? targetBug);
      updatedTarget.duplicates = sortedIds([...updatedTarget.duplicates, current.id]);
      if (reporterJoinsCcList(env, current.reporterId, updatedTarget))
        updatedTarget.ccIds = sortedIds([...updatedTarget.ccIds, current.reporterId]);
      working.set(target, updatedTarget);
      outcome.duplicateLinks.push({ bugId: current.id, dupeOf: target });
      outcome.comments.push({
        bugId: current.id,
        creatorId: me,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
        creationTime: env.now,
        commentType: 'dupe_of',
        extraData: target,
      });
      outcome.comments.push({
        bugId: target,
        creatorId: me,
        rawText: '',
        isPrivate: false,
        isMarkdown: false,
        workTime: 0,
        creationTime: env.now,
        commentType: 'has_dupe',
        extraData: current.id,
      });
    }
    return;
  }

  if (statusInput !== undefined && statusInput !== current.status) {
    next.status = statusInput;
    if (isOpenStatus(statusInput)) {
      if (resolutionInput)
        throw errors.resolutionNotAllowed(`An open bug cannot have a resolution (${resolutionInput}).`);
      next.resolution = NO_RESOLUTION;
      unlinkDuplicate(working, next);
    } else if (isOpenStatus(current.status)) {
      if (!resolutionInput) throw errors.resolutionRequired(`A bug moved to ${statusInput} needs a resolution.`);
      if (resolutionInput === DUPLICATE) throw errors.duplicateTargetRequired();
      next.resolution = resolutionInput;
    } else if (resolutionInput !== undefined) {
      setClosedResolution(working, next, resolutionInput);
    }
  } else if (resolutionInput !== undefined && resolutionInput !== current.resolution) {
    if (isOpenStatus(next.status))
      throw errors.resolutionNotAllowed(`The bug is open (${next.status}), so it cannot have a resolution.`);
    setClosedResolution(working, next, resolutionInput);
  }
  // Bugzilla's set_bug_status: a move to an open status decides whether the bug is confirmed, so
  // reopening a bug as UNCONFIRMED unconfirms it; any other open status confirms it.
  if (next.status !== current.status && isOpenStatus(next.status)) next.isConfirmed = next.status !== UNCONFIRMED;
  else if (isOpenStatus(next.status) && next.status !== UNCONFIRMED) next.isConfirmed = true;
}

/**
 * Whether marking a bug a duplicate puts its reporter on the target's CC list (Bugzilla's
 * _check_dup_id and add_cc): not when they already are on it or reported the target, nor when
 * they cannot see the target, since outside the browser Bugzilla asks nobody and adds nobody who
 * could then read a bug hidden from them. No one else joins a CC list unasked.
 */
function reporterJoinsCcList(env: BugEnvironment, reporterId: number, target: Bug): boolean {
  if (target.reporterId === reporterId || target.ccIds.includes(reporterId)) return false;
  const reporter = env.requestee(reporterId);
  return reporter !== undefined && canSeeBug(reporter, target, env.groupName, env.parameters.or_groups === '1');
}

function setClosedResolution(working: WorkingSet, next: Bug, resolution: string): void {
  if (resolution === NO_RESOLUTION) throw errors.resolutionRequired(`A ${next.status} bug needs a resolution.`);
  if (resolution === DUPLICATE && next.dupeOf === null) throw errors.duplicateTargetRequired();
  if (resolution !== DUPLICATE) unlinkDuplicate(working, next);
  next.resolution = resolution;
}
