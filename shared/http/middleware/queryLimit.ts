import type { MiddlewareObj } from '@middy/core';
import { errors } from '../../errors.ts';
import type { TrackerRequest } from '../requestState.ts';

/** Bugzilla's 10 KB query-string limit; over it the client must split its request (HTTP 414). */
export const MAX_QUERY_BYTES = 10 * 1024;

export const queryLimit = (): MiddlewareObj => ({
  before: (request) => {
    const query = (request as TrackerRequest).event.rawQueryString ?? '';
    if (Buffer.byteLength(query, 'utf8') > MAX_QUERY_BYTES) {
      throw errors.queryTooLong(
        `The query string is longer than ${MAX_QUERY_BYTES} bytes. Split the request into several smaller ones.`,
      );
    }
  },
});
