import type { MiddlewareObj } from '@middy/core';
import { errors } from '../../errors.ts';
import type { TrackerRequest } from '../requestState.ts';

/** Bugzilla's 10 KB query-string limit; over it the client must split its request (HTTP 414). */
export const MAX_QUERY_BYTES = 10 * 1024;

/**
 * The limit is on what a client puts in a URL. An RPC call (XML-RPC, JSON-RPC) runs its GET
 * route in-process with its params as a query string, but came in a POST body, which has its own
 * bounds: Bugzilla 5.2 answers Bug.get with thousands of ids (python-bugzilla's getbugs).
 */
export const queryLimit = (): MiddlewareObj => ({
  before: (request) => {
    const trackerRequest = request as TrackerRequest;
    if (trackerRequest.context.inProcessCall === true) return;
    const query = trackerRequest.event.rawQueryString ?? '';
    if (Buffer.byteLength(query, 'utf8') > MAX_QUERY_BYTES) {
      throw errors.queryTooLong(
        `The query string is longer than ${MAX_QUERY_BYTES} bytes. Split the request into several smaller ones.`,
      );
    }
  },
});
