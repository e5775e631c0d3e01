import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { bugHistorySchema, type HistoryEntryRecord } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';
import { readSplitting } from './splitting.ts';

/**
 * The history of a batch of bugs in one request, by bug id, oldest entry first; a batch whose
 * answer is too large (32000, or past the client's cap) is read again in halves.
 */
const answer = z.object({ bugs: z.array(bugHistorySchema) });

export async function readHistory(
  client: BugzillaClient,
  bugIds: readonly number[],
): Promise<Map<number, HistoryEntryRecord[]>> {
  const history = new Map<number, HistoryEntryRecord[]>(bugIds.map((id) => [id, []]));
  if (bugIds.length === 0) return history;
  const read = async (ids: readonly number[]) => {
    const { path, query } = batchRequest(ids, '/history');
    return answer.parse(await client.get(path, query)).bugs;
  };
  for (const bug of await readSplitting(bugIds, read, (id) => `The history of bug ${id}`))
    history.set(bug.id, bug.history);
  return history;
}
