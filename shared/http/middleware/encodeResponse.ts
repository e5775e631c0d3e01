import type { MiddlewareObj } from '@middy/core';
import { errors } from '../../errors.ts';
import { compressedForClient, fitsLambdaResponse } from '../lambdaResponse.ts';
import { type HttpResult, header, type TrackerContext, type TrackerRequest } from '../requestState.ts';
import { trackerErrorEnvelope } from './errorEnvelope.ts';
import { formatPayload } from './formatResponse.ts';

/**
 * Fits the formatted answer to the Lambda boundary (lambdaResponse.ts): gzipped for a client that
 * accepts it, and refused with Bugzilla's envelope when even so it is more than one invocation can
 * answer, instead of the bare 500 API Gateway would send. A REST route the RPC layer calls
 * in-process answers that layer, not Lambda: the RPC answer is fitted instead.
 */
export const encodeResponse = (): MiddlewareObj => ({
  after: async (request) => {
    const trackerRequest = request as TrackerRequest;
    if (isInProcessCall(trackerRequest.context)) return;
    let result = request.response as HttpResult;
    const acceptEncoding = header(trackerRequest.event, 'accept-encoding');
    let encoded = await compressedForClient(result, acceptEncoding);
    if (!fitsLambdaResponse(encoded)) {
      trackerErrorEnvelope(trackerRequest, responseTooLarge(result, encoded));
      result = formatPayload(trackerRequest);
      encoded = await compressedForClient(result, acceptEncoding);
    }
    request.response = encoded;
  },
});

/** The error for an answer over the limit, saying how large it was and how to ask for less. */
function responseTooLarge(plain: HttpResult, encoded: HttpResult): ReturnType<typeof errors.responseTooLarge> {
  const kilobytes = Math.ceil(Buffer.byteLength(plain.body ?? '', 'utf8') / 1024);
  return errors.responseTooLarge(kilobytes, encoded.isBase64Encoded === true);
}

const isInProcessCall = (context: TrackerContext): boolean => context.inProcessCall === true;
