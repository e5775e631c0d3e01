import { errors } from '../../../errors.ts';
import { isTimeTracker } from '../bugAccess.ts';
import { checkDate, checkHours, remainingAfter } from '../bugFieldRules.ts';
import { type BugUpdateContext, present } from './updateContext.ts';

/**
 * Deadline, estimated and remaining time. They are checked the same for everyone; a change by
 * someone outside the time-tracking group is then refused (115), as Bugzilla 5.2's
 * check_can_change_field does.
 */
export function applyTimeFields({ env, input, current, next }: BugUpdateContext): void {
  const changes: Array<[string, unknown, unknown]> = [];
  if (input.deadline !== undefined) {
    const deadline = checkDate('deadline', input.deadline);
    changes.push(['deadline', current.deadline ?? '', deadline ?? '']);
    next.deadline = deadline;
  }
  if (present(input.estimated_time)) {
    next.estimatedTime = checkHours('estimated_time', input.estimated_time);
    changes.push(['estimated_time', current.estimatedTime, next.estimatedTime]);
  }
  if (present(input.remaining_time)) {
    next.remainingTime = checkHours('remaining_time', input.remaining_time);
    changes.push(['remaining_time', current.remainingTime, next.remainingTime]);
  }
  const change = changes.find(([, from, to]) => from !== to);
  if (change && !isTimeTracker(env.caller, env.parameters)) {
    const [field, from, to] = change;
    throw errors.fieldChangeDenied(
      `You tried to change the ${field} field ${from === '' ? '' : `from ${from} `}to ${to}, but only a user with the required permissions may change that field. (Time tracking is for members of the time-tracking group.)`,
    );
  }
}

/**
 * Hours worked, for the time-tracking group (ignored for others, as Bugzilla does): added to the
 * bug's actual time, carried by the request's comment (or an empty one), and taken off the time
 * remaining unless the request sets it.
 */
export function applyWorkTime({ env, input, next, bugId, outcome }: BugUpdateContext): void {
  if (!isTimeTracker(env.caller, env.parameters) || !present(input.work_time) || Number(input.work_time) === 0) return;
  // Negative hours correct hours reported before (Bugzilla's _check_work_time allows them).
  const hours = checkHours('work_time', input.work_time, { allowNegative: true });
  next.actualTime = Math.round((next.actualTime + hours) * 100) / 100;
  if (!present(input.remaining_time)) next.remainingTime = remainingAfter(next.remainingTime, hours);
  const carrier = outcome.comments.find((entry) => entry.bugId === bugId);
  if (carrier) carrier.workTime = hours;
  else
    outcome.comments.push({
      bugId,
      creatorId: env.caller.user.id,
      rawText: '',
      isPrivate: false,
      isMarkdown: false,
      workTime: hours,
      creationTime: env.now,
    });
  outcome.extraHistory.set(bugId, [{ field_name: 'work_time', removed: '', added: hours.toFixed(2) }]);
}
