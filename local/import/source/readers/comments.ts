import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type CommentRecord, commentSchema } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';
import { readSplitting } from './splitting.ts';

/**
 * The comments of a batch of bugs in one request, by bug id, each bug's in `count` order.
 * Private comments come only to the insider group's members. A batch whose answer is too large
 * (32000, or past the client's cap) is read again in halves.
 */
const answer = z.object({
  bugs: z.record(z.string(), z.object({ comments: z.array(commentSchema) })),
});

export async function readComments(
  client: BugzillaClient,
  bugIds: readonly number[],
): Promise<Map<number, CommentRecord[]>> {
  const comments = new Map<number, CommentRecord[]>(bugIds.map((id) => [id, []]));
  if (bugIds.length === 0) return comments;
  const read = async (ids: readonly number[]) => {
    const { path, query } = batchRequest(ids, '/comment');
    return Object.entries(answer.parse(await client.get(path, query)).bugs);
  };
  for (const [id, bug] of await readSplitting(bugIds, read, (id) => `The comments of bug ${id}`))
    comments.set(
      Number(id),
      bug.comments.sort((a, b) => a.count - b.count),
    );
  return comments;
}
