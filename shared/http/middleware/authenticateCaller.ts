import type { MiddlewareObj } from '@middy/core';
import {
  authenticate,
  credentialParamsIn,
  extractCredentials,
  type IdentityDirectory,
} from '../../domain/identity/authentication.ts';
import { lowerCaseHeaders, sourceIp, stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Resolves the caller from any credential form and removes credentials from the parameters,
 * so no endpoint sees (or echoes, or logs) them. `skip` is for the login and logout endpoints,
 * which read `login`, `password` and `token` as their own input.
 */
export const authenticateCaller = (
  directory: () => IdentityDirectory,
  mode: 'resolve' | 'skip' = 'resolve',
): MiddlewareObj => ({
  before: async (request) => {
    const trackerRequest = request as TrackerRequest;
    const state = stateOf(trackerRequest);
    if (mode === 'skip') return;
    const credentials = extractCredentials(lowerCaseHeaders(trackerRequest.event), state.params);
    const consumed = credentialParamsIn(state.params);
    state.params = Object.fromEntries(Object.entries(state.params).filter(([name]) => !consumed.includes(name)));
    state.caller = await authenticate(credentials, directory(), new Date(), sourceIp(trackerRequest.event));
  },
});
