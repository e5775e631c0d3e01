import type { MiddlewareObj } from '@middy/core';
import { CREDENTIAL_PARAMS, extractCredentials } from '../../domain/identity/authentication.ts';
import { errors } from '../../errors.ts';
import type { TrackerError } from '../../trackerError.ts';
import { lowerCaseHeaders, stateOf, type TrackerRequest } from '../requestState.ts';
import { parseQueryString } from './parseInput.ts';

/**
 * For an endpoint that needs a login: a request with a body and no credential anywhere (no
 * credential header, none in the query string, no credential name among the body's top-level
 * members, which decodeInput listed without parsing) is answered 410 at once. Its body is never
 * parsed or validated, so nobody can make an instance build a large body only to be refused.
 * A body naming a credential goes the usual way, and authentication judges the credential.
 * Requests without a body go the usual way too: they cost nothing to parse, and keep their JSONP.
 */
export const refuseAnonymousWrite = (
  needsLogin: boolean,
  refusal: () => TrackerError = errors.loginRequired,
): MiddlewareObj => ({
  before: (request) => {
    if (!needsLogin) return;
    const trackerRequest = request as TrackerRequest;
    const { body } = stateOf(trackerRequest);
    if (!body) return;
    const { event } = trackerRequest;
    if (extractCredentials(lowerCaseHeaders(event), parseQueryString(event.rawQueryString)) !== null) return;
    if (body.memberNames.some((name) => CREDENTIAL_PARAMS.includes(name))) return;
    throw refusal();
  },
});
