import { BugzillaApiError, SourceRequestError } from '../sourceErrors.ts';

/**
 * Bugzilla's and Tracker's "the answer would be too large" (32000 from 5.2's and Tracker's
 * answer limits, 600 from Tracker's attachment reads) and the importer's own cap on an answer
 * (`maxAnswerBytes`): the same request for fewer ids may pass.
 */
export const isTooLarge = (error: unknown): boolean =>
  (error instanceof BugzillaApiError && (error.code === 32000 || error.code === 600)) ||
  (error instanceof SourceRequestError && error.failure === 'too-large');

/**
 * `read` for `ids`, split in halves while the answer is too large, until each id stands alone;
 * one id whose answer is still too large fails with a message naming it (`what` of it).
 */
export async function readSplitting<T>(
  ids: readonly number[],
  read: (ids: readonly number[]) => Promise<T[]>,
  what: (id: number) => string,
): Promise<T[]> {
  try {
    return await read(ids);
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    if (ids.length === 1)
      throw new Error(`${what(ids[0])} is too large to read in one answer: ${(error as Error).message}`);
    const half = Math.ceil(ids.length / 2);
    const parts = await Promise.all([
      readSplitting(ids.slice(0, half), read, what),
      readSplitting(ids.slice(half), read, what),
    ]);
    return parts.flat();
  }
}
