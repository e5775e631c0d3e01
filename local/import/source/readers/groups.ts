import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type GroupRecord, groupSchema } from '../sourceRecords.ts';

/**
 * Every group the account may list, with its members (`membership=1`). creategroups and
 * editusers see every group; others only those they can bless, and without `user_regexp`,
 * `is_active` and `is_bug_group` (null then). Members include derived memberships.
 */
export async function readGroups(client: BugzillaClient): Promise<GroupRecord[]> {
  const answer = await client.get('/group', { membership: 1 });
  return z
    .object({ groups: z.array(groupSchema) })
    .parse(answer)
    .groups.sort((a, b) => a.id - b.id);
}
