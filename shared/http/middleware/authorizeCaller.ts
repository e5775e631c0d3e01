import type { MiddlewareObj } from '@middy/core';
import { inGroup, isLoggedIn } from '../../domain/caller.ts';
import { loginRequired, type TrackerError } from '../../trackerError.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Who may call an endpoint at all: anyone, any logged-in user, or members of one group (each
 * endpoint names the Bugzilla error its refusal raises). Finer rules live in domain code.
 */
export type Access = 'public' | 'login' | { group: string; denied: () => TrackerError };

export const authorizeCaller = (access: Access): MiddlewareObj => ({
  before: (request) => {
    if (access === 'public') return;
    const { caller } = stateOf(request as TrackerRequest);
    if (!isLoggedIn(caller)) throw loginRequired();
    if (access !== 'login' && !inGroup(caller, access.group)) throw access.denied();
  },
});
