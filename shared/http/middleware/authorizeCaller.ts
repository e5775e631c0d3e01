import type { MiddlewareObj } from '@middy/core';
import { inGroup, isLoggedIn } from '../../domain/identity/caller.ts';
import { errors } from '../../errors.ts';
import type { TrackerError } from '../../trackerError.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Who may call an endpoint at all: anyone, any logged-in user, or members of one group (each
 * endpoint names the Bugzilla error its refusal raises). Finer rules live in domain code.
 *
 * With Bugzilla's `requirelogin` parameter on, public endpoints need a login too, except those
 * a client needs before it can log in (version, login, ...), which are marked login-exempt.
 */
export type Access =
  | 'public'
  | 'login'
  | {
      group: string;
      denied: () => TrackerError;
      /** A logged-out caller gets `denied` too, not 410 (Bugzilla 5.2's User.create checks the group alone). */
      deniedLoggedOut?: boolean;
    };

/** The refusal a logged-out caller gets: `denied` where the endpoint says so, 410 otherwise. */
export const loggedOutRefusal = (access: Access): (() => TrackerError) =>
  typeof access === 'object' && access.deniedLoggedOut ? access.denied : errors.loginRequired;

export interface AuthorizeOptions {
  loginExempt?: boolean;
  /** Whether the installation requires a login for everything (the `requirelogin` parameter). */
  installationRequiresLogin: () => Promise<boolean>;
}

export const authorizeCaller = (access: Access, options: AuthorizeOptions): MiddlewareObj => ({
  before: async (request) => {
    const { caller } = stateOf(request as TrackerRequest);
    if (access === 'public') {
      if (!isLoggedIn(caller) && !options.loginExempt && (await options.installationRequiresLogin()))
        throw errors.loginRequired();
      return;
    }
    if (!isLoggedIn(caller)) throw loggedOutRefusal(access)();
    if (access !== 'login' && !inGroup(caller, access.group)) throw access.denied();
  },
});
