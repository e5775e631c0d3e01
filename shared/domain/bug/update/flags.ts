import { appliesTo } from '../../catalog/flagTypes.ts';
import { inGroup } from '../../identity/caller.ts';
import { asList } from '../../inputValues.ts';
import { applyFlagInputs, type FlagInput } from '../bugFlags.ts';
import type { BugUpdateContext } from './updateContext.ts';

/** Flags of the types that apply to the bug where this update leaves it (bugFlags.ts). */
export function applyFlags({ env, input, next }: BugUpdateContext): void {
  if (input.flags === undefined) return;
  const { caller, parameters } = env;
  const bugTypes = env.flagTypes.filter((type) => type.targetType === 'bug');
  next.flags = applyFlagInputs(
    next.flags,
    asList(input.flags) as FlagInput[],
    {
      types: bugTypes.filter((type) => appliesTo(type, next.productId, next.componentId)),
      callerId: caller.user.id,
      inGroupId: (groupId) => inGroup(caller, env.groupName(groupId) ?? ''),
      userIdOf: (login) => env.findUserId(login),
      // The bug as this update leaves it: a requestee must be able to see it afterwards.
      requestees: { bug: next, requestee: (userId) => env.requestee(userId), groupName: env.groupName, parameters },
      now: env.now,
      nextFlagId: env.nextFlagId,
    },
    bugTypes,
  );
}
