import type { MiddlewareObj } from '@middy/core';
import { TrackerError } from '../../trackerError.ts';
import { compressedForClient, fittedForLambda } from '../lambdaResponse.ts';
import { type HttpResult, header, type TrackerContext, type TrackerRequest } from '../requestState.ts';
import { trackerErrorEnvelope } from './errorEnvelope.ts';
import { formatPayload } from './formatResponse.ts';

/**
 * Fits the formatted answer to the Lambda boundary (lambdaResponse.ts): gzipped for a client that
 * accepts it, and refused with Bugzilla's envelope when even so it is more than one invocation can
 * answer, instead of the bare 500 API Gateway would send; HEAD gets what GET would, without the
 * body. A REST route the RPC layer calls
 * in-process answers that layer, not Lambda: the RPC answer is fitted instead.
 */
export const encodeResponse = (): MiddlewareObj => ({
  after: async (request) => {
    const trackerRequest = request as TrackerRequest;
    if (isInProcessCall(trackerRequest.context)) return;
    const acceptEncoding = header(trackerRequest.event, 'accept-encoding');
    const fitted = await fittedForLambda(request.response as HttpResult, acceptEncoding);
    if (fitted instanceof TrackerError) {
      trackerErrorEnvelope(trackerRequest, fitted);
      request.response = await compressedForClient(formatPayload(trackerRequest), acceptEncoding);
    } else request.response = fitted;
    // HEAD answers GET's status and headers, measured on GET's body, without the body.
    if (trackerRequest.event.requestContext?.http?.method === 'HEAD')
      request.response = { ...(request.response as HttpResult), body: '', isBase64Encoded: false };
  },
});

const isInProcessCall = (context: TrackerContext): boolean => context.inProcessCall === true;
