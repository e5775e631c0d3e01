import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type CommentRecord, commentSchema } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';

/**
 * The comments of a batch of bugs in one request, by bug id, each bug's in `count` order.
 * Private comments come only to the insider group's members.
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
  const { path, query } = batchRequest(bugIds, '/comment');
  for (const [id, bug] of Object.entries(answer.parse(await client.get(path, query)).bugs))
    comments.set(
      Number(id),
      bug.comments.sort((a, b) => a.count - b.count),
    );
  return comments;
}
