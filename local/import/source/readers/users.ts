import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type IdRange, orderedMap } from '../concurrency.ts';
import { BugzillaApiError, SourceDataError } from '../sourceErrors.ts';
import { type UserRecord, userSchema } from '../sourceRecords.ts';

/**
 * Users by id. `GET /rest/user?match=` stops at the `maxusermatches` parameter, so the complete
 * way is by ids (`ids=1&ids=2…`), where ids that name nobody are simply left out. Bugzilla has no
 * "highest user id", so without an end the reading stops after `stopAfterEmptyBatches` batches
 * in a row found nobody (deleted accounts leave gaps, rarely a thousand ids wide).
 * A batch refused with 505 (users the account may not see, with `usevisibilitygroups`) is read
 * again one id at a time, and those ids are reported as `hidden`.
 */

export interface UserBatch {
  range: IdRange;
  users: UserRecord[];
  /** Ids of users the account is not allowed to see. */
  hidden: number[];
}

export interface ReadUsersOptions {
  /** Default from 1, open-ended. */
  from?: number;
  to?: number;
  batchSize?: number;
  stopAfterEmptyBatches?: number;
  /** Batches in flight; default half the client's connections. */
  ahead?: number;
  /**
   * At most this many users (default 1,000,000): a source with a user at every id would
   * otherwise be read for ever (issue 41). Past it the reading fails with a SourceDataError.
   */
  maxUsers?: number;
}

export const DEFAULT_MAX_USERS = 1_000_000;

const USER_FIELDS = 'id,name,real_name,email,can_login,email_enabled,login_denied_text,groups';
const answer = z.object({ users: z.array(userSchema) });

export async function* readUsers(client: BugzillaClient, options: ReadUsersOptions = {}): AsyncGenerator<UserBatch> {
  const size = options.batchSize ?? 100;
  const stopAfter = options.stopAfterEmptyBatches ?? 10;
  const to = options.to ?? Number.POSITIVE_INFINITY;
  function* ranges(): Generator<IdRange> {
    for (let from = options.from ?? 1; from <= to; from += size) yield { from, to: Math.min(to, from + size - 1) };
  }
  let empty = 0;
  let read = 0;
  const maxUsers = options.maxUsers ?? DEFAULT_MAX_USERS;
  const ahead = options.ahead ?? Math.max(1, Math.floor(client.connections / 2));
  for await (const batch of orderedMap(ranges(), ahead, (range) => readUserRange(client, range))) {
    read += batch.users.length + batch.hidden.length;
    if (read > maxUsers)
      throw new SourceDataError(
        `The source lists more than ${maxUsers} users (ids 1 to ${batch.range.to} read so far), more than the importer takes (--max-users): a source with a user at every id would be read for ever.`,
      );
    yield batch;
    empty = batch.users.length === 0 && batch.hidden.length === 0 ? empty + 1 : 0;
    if (options.to === undefined && empty >= stopAfter) return;
  }
}

async function readUserRange(client: BugzillaClient, range: IdRange): Promise<UserBatch> {
  const ids = Array.from({ length: range.to - range.from + 1 }, (_, index) => range.from + index);
  try {
    return { range, users: await readUserIds(client, ids), hidden: [] };
  } catch (error) {
    if (!(error instanceof BugzillaApiError && error.code === 505)) throw error;
  }
  const users: UserRecord[] = [];
  const hidden: number[] = [];
  await Promise.all(
    ids.map(async (id) => {
      try {
        users.push(...(await readUserIds(client, [id])));
      } catch (error) {
        if (!(error instanceof BugzillaApiError && error.code === 505)) throw error;
        hidden.push(id);
      }
    }),
  );
  return { range, users: users.sort((a, b) => a.id - b.id), hidden: hidden.sort((a, b) => a - b) };
}

const readUserIds = async (client: BugzillaClient, ids: number[]) =>
  answer.parse(await client.get('/user', { ids, include_fields: USER_FIELDS })).users.sort((a, b) => a.id - b.id);
