import type { MiddlewareObj } from '@middy/core';
import { logger } from '../../observability/logger.ts';
import { isTransientStorageFailure, outcomeUnknown, RETRY_AFTER_SECONDS } from '../../storage/transientFailures.ts';
import { INTERNAL_ERROR, TrackerError } from '../../trackerError.ts';
import { stateOf, type TrackerRequest } from '../requestState.ts';
import { sourceMappedStack } from '../sourceMappedStack.ts';

/** Bugzilla points clients at its API documentation in every error. */
const documentationUrl = 'https://bugzilla.readthedocs.io/en/5.2/api/index.html';

/** The caller's error as the response, with the HTTP status of its code. */
export function trackerErrorEnvelope(request: TrackerRequest, error: TrackerError): void {
  const state = stateOf(request);
  state.statusCode = error.httpStatus;
  state.errorCode = error.code;
  request.response = { error: true, code: error.code, message: error.message, documentation: documentationUrl };
}

/**
 * Every failure becomes Bugzilla's envelope `{error, code, message}` with the HTTP status of its
 * code. A failure that is not a TrackerError is ours, not the caller's: a busy store (throttled,
 * timed out) is a 503 with Retry-After; anything else is logged with its stack under the request
 * id, and the caller gets a 500 quoting that id, never the stack.
 */
export const errorEnvelope = (): MiddlewareObj => ({
  onError: (request) => {
    const trackerRequest = request as TrackerRequest;
    const state = stateOf(trackerRequest);
    const error = request.error;
    const requestId = trackerRequest.context.awsRequestId ?? trackerRequest.event.requestContext?.requestId;
    if (error instanceof TrackerError) {
      trackerErrorEnvelope(trackerRequest, error);
      return;
    }
    if (isTransientStorageFailure(error)) {
      // Logged as a warning: the alarms count the 503s, and nothing here needs a person's look.
      logger.warn('storage busy', { requestId, route: trackerRequest.event.routeKey, error: error?.name });
      state.statusCode = 503;
      state.errorCode = INTERNAL_ERROR;
      state.retryAfterSeconds = RETRY_AFTER_SECONDS;
      // A read changes nothing either way; a write that timed out may have been saved meanwhile,
      // and sending a create or a comment again would save it twice.
      const method = trackerRequest.event.requestContext?.http?.method ?? 'GET';
      const unsure = method !== 'GET' && method !== 'HEAD' && outcomeUnknown(error);
      request.response = {
        error: true,
        code: INTERNAL_ERROR,
        message: unsure
          ? `Tracker is busy and could not confirm this request: it may have been saved. Check before sending it again in ${RETRY_AFTER_SECONDS} seconds.`
          : `Tracker is busy and could not finish this request; nothing was changed. Please try again in ${RETRY_AFTER_SECONDS} seconds.`,
        request_id: requestId,
      };
      return;
    }
    logger.error(error?.message ?? 'unexpected error', {
      requestId,
      route: trackerRequest.event.routeKey,
      error: error?.name,
      stack: sourceMappedStack(error?.stack),
    });
    state.statusCode = 500;
    state.errorCode = INTERNAL_ERROR;
    request.response = {
      error: true,
      code: INTERNAL_ERROR,
      message: `Tracker hit an unexpected error. Please report request id ${requestId} to the administrator.`,
      request_id: requestId,
    };
  },
});
