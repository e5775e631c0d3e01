import type { MiddlewareObj } from '@middy/core';
import { stateOf, type TrackerRequest } from '../requestState.ts';

/**
 * Starts the endpoint's prefetch (EndpointDefinition.prefetch) and moves on without waiting:
 * authentication's own reads, asked for next, then travel in the same batch. Errors are dropped
 * here; the handler reads the same items again through the request's memo and meets them there.
 */
export const prefetchReads = (
  prefetch: ((params: Record<string, unknown>) => Promise<unknown>) | undefined,
): MiddlewareObj => ({
  before: (request) => {
    if (!prefetch) return;
    try {
      prefetch(stateOf(request as TrackerRequest).params).catch(() => undefined);
    } catch {
      // A prefetch that throws before its first read only means nothing was prefetched.
    }
  },
});
