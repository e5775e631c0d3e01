import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { bugHistorySchema, type HistoryEntryRecord } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';

/** The history of a batch of bugs in one request, by bug id, oldest entry first. */
const answer = z.object({ bugs: z.array(bugHistorySchema) });

export async function readHistory(
  client: BugzillaClient,
  bugIds: readonly number[],
): Promise<Map<number, HistoryEntryRecord[]>> {
  const history = new Map<number, HistoryEntryRecord[]>(bugIds.map((id) => [id, []]));
  if (bugIds.length === 0) return history;
  const { path, query } = batchRequest(bugIds, '/history');
  for (const bug of answer.parse(await client.get(path, query)).bugs) history.set(bug.id, bug.history);
  return history;
}
