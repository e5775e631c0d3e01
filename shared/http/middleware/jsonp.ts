import type { MiddlewareObj } from '@middy/core';
import { errors } from '../../errors.ts';
import { header, stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Bugzilla 5.2's callback names (`^[\w.\[\]]+$`, its JSON-RPC and REST alike), and `$`: letters,
 * digits, `_`, `$`, `.`, `[` and `]` only, so nothing in a name can end the call or start another
 * statement (the answer is the name and the JSON in parentheses, after an empty comment, with nosniff).
 */
const CALLBACK = /^[A-Za-z0-9_$.[\]]+$/;
const MAX_CALLBACK_LENGTH = 128;

/** Takes `callback` out of the parameters and decides whether the answer is JSONP. */
export const jsonp = (): MiddlewareObj => ({
  before: (request) => {
    const trackerRequest = request as TrackerRequest;
    const state = stateOf(trackerRequest);
    const { callback, ...rest } = state.params;
    state.params = rest;
    if (callback === undefined) return;
    if (typeof callback !== 'string' || callback.length > MAX_CALLBACK_LENGTH || !CALLBACK.test(callback)) {
      throw errors.invalidParameter('The callback must be made of letters, digits, _, $, . and [ ] only.');
    }
    const accept = header(trackerRequest.event, 'accept') ?? '';
    if (/\b(application|text)\/javascript\b/i.test(accept)) state.jsonpCallback = callback;
  },
});
