import type { MiddlewareObj } from '@middy/core';
import { errors } from '../../errors.ts';
import { header, stateOf, type TrackerRequest } from '../requestState.ts';

/** A dotted JavaScript identifier path; anything else in a callback would be an XSS hole. */
const CALLBACK = /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/;
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
      throw errors.invalidParameter(
        'The callback must be a JavaScript identifier, optionally dotted (letters, digits, _ and $, not starting with a digit).',
      );
    }
    const accept = header(trackerRequest.event, 'accept') ?? '';
    if (/\b(application|text)\/javascript\b/i.test(accept)) state.jsonpCallback = callback;
  },
});
