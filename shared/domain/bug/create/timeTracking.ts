import { isTimeTracker } from '../bugAccess.ts';
import { checkDate, checkHours } from '../bugFieldRules.ts';
import type { NewBugContext } from './newBugContext.ts';
import { present } from './newBugInput.ts';

/** Estimate, time remaining (the estimate unless given) and deadline: the time-tracking group's only. */
export function timeFieldsOf({ env, input }: NewBugContext) {
  const timeTracker = isTimeTracker(env.caller, env.parameters);
  const estimatedTime =
    timeTracker && present(input.estimated_time) ? checkHours('estimated_time', input.estimated_time) : 0;
  const remainingTime =
    timeTracker && present(input.remaining_time) ? checkHours('remaining_time', input.remaining_time) : estimatedTime;
  const deadline = timeTracker && present(input.deadline) ? checkDate('deadline', input.deadline) : null;
  return { estimatedTime, remainingTime, deadline };
}
