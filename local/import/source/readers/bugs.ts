import * as z from 'zod';
import type { BugzillaClient } from '../bugzillaClient.ts';
import { type IdRange, idChunks, orderedMap } from '../concurrency.ts';
import { BugzillaApiError } from '../sourceErrors.ts';
import { type BugFault, type BugRecord, bugFaultSchema, bugSchema, idSchema } from '../sourceRecords.ts';
import { batchRequest } from './batchRequest.ts';

/**
 * Bugs by id, in batches (`GET /rest/bug/<first>?ids=…&permissive=1`). Where `permissive` works
 * (Tracker, Harmony/BMO) a bug that cannot be read is a fault of the answer instead of failing
 * the request, so an id that names no bug (101) and a bug the account may not see (102) are both
 * accounted for. Stock Bugzilla 5.0 and 5.2 ignore `permissive` over REST and JSON-RPC: one
 * such id fails the whole batch with that error. So the ids to read are learned first by search
 * (`visibleBugIds`), and a batch that fails all the same (a bug deleted or hidden between the
 * search and the read) is split in halves until the failing ids stand alone, each then a fault.
 * Every field (`_all`), without the extras other readers get on their own: Harmony's `_all`
 * would otherwise repeat every comment and history entry.
 */

export interface BugBatch {
  range: IdRange;
  bugs: BugRecord[];
  /** Ids with no bug: never filed, or deleted. */
  missing: number[];
  /** Bugs that exist but could not be read, mostly 102: in a group the account is not in. */
  faults: BugFault[];
}

export interface ReadBugsOptions {
  batchSize?: number;
  /** Batches in flight; default half the client's connections. */
  ahead?: number;
}

const NOT_A_BUG = 101;
/** Get Bug's errors for an id that names no bug (101) and a bug the account may not see (102). */
const UNREADABLE = [101, 102];
const EXTRAS_READ_APART = 'comments,history,attachments,description';
const rawAnswer = z.object({ bugs: z.array(z.unknown()), faults: z.array(bugFaultSchema).nullish() });

export function readBugs(
  client: BugzillaClient,
  range: IdRange,
  options: ReadBugsOptions = {},
): AsyncGenerator<BugBatch> {
  const ahead = options.ahead ?? Math.max(1, Math.floor(client.connections / 2));
  return orderedMap(idChunks(range, options.batchSize ?? 100), ahead, (ids) => readBugIds(client, ids));
}

export async function readBugIds(client: BugzillaClient, ids: number[]): Promise<BugBatch> {
  const read = await readBugsSplitting(client, ids, { include_fields: '_all', exclude_fields: EXTRAS_READ_APART });
  const bugs = z.array(bugSchema).parse(read.bugs);
  return {
    range: { from: ids[0], to: ids[ids.length - 1] },
    bugs: bugs.sort((a, b) => a.id - b.id),
    missing: read.faults.filter((fault) => fault.code === NOT_A_BUG).map((fault) => fault.id),
    faults: read.faults.filter((fault) => fault.code !== NOT_A_BUG),
  };
}

/**
 * Get Bug for `ids` with `permissive`, as the wire has them, with every unreadable id a fault
 * (101: no such bug, 102: not visible) whether the source honours `permissive` or fails the
 * whole request for it (5.0, 5.2): then the batch is split in halves until each failing id
 * stands alone.
 */
export async function readBugsSplitting(
  client: BugzillaClient,
  ids: readonly number[],
  fields: Record<string, string>,
): Promise<{ bugs: unknown[]; faults: BugFault[] }> {
  const { path, query } = batchRequest(ids);
  let raw: unknown;
  try {
    raw = await client.get(path, { ...query, permissive: 1, ...fields });
  } catch (error) {
    if (!(error instanceof BugzillaApiError && UNREADABLE.includes(error.code))) throw error;
    if (ids.length === 1)
      return { bugs: [], faults: [{ id: ids[0], code: error.code, message: error.bugzillaMessage }] };
    const half = Math.ceil(ids.length / 2);
    const parts = await Promise.all([
      readBugsSplitting(client, ids.slice(0, half), fields),
      readBugsSplitting(client, ids.slice(half), fields),
    ]);
    return { bugs: parts.flatMap((part) => part.bugs), faults: parts.flatMap((part) => part.faults) };
  }
  const parsed = rawAnswer.parse(raw);
  return { bugs: parsed.bugs, faults: parsed.faults ?? [] };
}

/**
 * The ids of every bug the account can see above `after`, ascending: id-ordered searches of
 * `pageSize` ids each, every page starting after the last id of the one before (so the
 * `max_search_results` cap of 5.x, 10,000 by default, is never met, and no offset grows).
 * This is how ids are learned from a source whose Get Bug does not honour `permissive`.
 */
export async function visibleBugIds(
  client: BugzillaClient,
  after = 0,
  pageSize = 5000,
  where: Record<string, string> = {},
): Promise<number[]> {
  const ids: number[] = [];
  const page = z.object({ bugs: z.array(z.object({ id: idSchema })) });
  for (let last = after; ; ) {
    const { bugs } = page.parse(
      await client.get('/bug', {
        f1: 'bug_id',
        o1: 'greaterthan',
        v1: last,
        ...where,
        order: 'bug_id',
        limit: pageSize,
        include_fields: 'id',
      }),
    );
    const found = bugs.map((bug) => bug.id).filter((id) => id > last);
    found.sort((a, b) => a - b);
    ids.push(...found);
    if (bugs.length < pageSize || found.length === 0) return ids;
    last = found[found.length - 1];
  }
}

/**
 * The highest bug id the account can see (0 when none): an id-ordered search for one bug. A
 * criterion every bug meets is given because Tracker, like Bugzilla with
 * `search_allow_no_criteria` off, refuses a search without any.
 */
export async function highestBugId(client: BugzillaClient): Promise<number> {
  const found = z
    .object({ bugs: z.array(z.object({ id: idSchema })) })
    .parse(await client.get('/bug', { ...EVERY_BUG, order: 'bug_id DESC', limit: 1, include_fields: 'id' })).bugs;
  return found[0]?.id ?? 0;
}

const EVERY_BUG = { f1: 'bug_id', o1: 'greaterthan', v1: 0 };

/**
 * Ids of the bugs changed at `since` or later, ascending, for an update run (`--since`), read
 * in pages of `pageSize` (below the `max_search_results` cap of 10,000).
 */
export async function changedBugIds(client: BugzillaClient, since: string, pageSize = 5000): Promise<number[]> {
  const ids: number[] = [];
  const page = z.object({ bugs: z.array(z.object({ id: idSchema })) });
  for (let offset = 0; ; offset += pageSize) {
    const { bugs } = page.parse(
      await client.get('/bug', {
        last_change_time: since,
        order: 'bug_id',
        limit: pageSize,
        offset,
        include_fields: 'id',
      }),
    );
    ids.push(...bugs.map((bug) => bug.id));
    // A page that moved under a change lists an id twice: each bug is read once.
    if (bugs.length < pageSize) return [...new Set(ids)].sort((a, b) => a - b);
  }
}

/**
 * Ids of the bugs that carry a comment tag, and of those that carry a personal tag of the key's
 * account: searches paged by id like visibleBugIds (`comment_tag` matching the regular
 * expression `.`, `tag` not empty). Neither kind of tag moves a bug's `last_change_time` on
 * 5.x, so an update asks for them apart. A source that refuses one of the searches yields a
 * warning instead of its ids.
 */
export async function taggedBugIds(client: BugzillaClient): Promise<{ ids: number[]; warnings: string[] }> {
  const warnings: string[] = [];
  const search = async (what: string, where: Record<string, string>) => {
    try {
      return await visibleBugIds(client, 0, 5000, where);
    } catch (error) {
      if (!(error instanceof BugzillaApiError)) throw error;
      warnings.push(
        `The source refused the search for bugs with ${what} (${error.bugzillaMessage}): changes of ${what} on bugs whose last_change_time did not move are brought only for bugs the target knows to carry them.`,
      );
      return [];
    }
  };
  const [commentTagged, personallyTagged] = await Promise.all([
    search('comment tags', { f2: 'comment_tag', o2: 'regexp', v2: '.' }),
    search('personal tags', { f2: 'tag', o2: 'isnotempty', v2: '' }),
  ]);
  return { ids: [...new Set([...commentTagged, ...personallyTagged])].sort((a, b) => a - b), warnings };
}

/**
 * What Get Bug says of ids the search did not list (5.0, 5.2 leave bugs the account may not see
 * out of a search): each id alone, so a bug the account may not see (102) is told from an id
 * without a bug (101). Every id between the visible ones is asked, then ids above the highest,
 * `above` at a time, until a round finds none; at most `limit` ids in all (the gap left is
 * returned as `unprobed`). Returns the faults other than 101.
 */
export async function probeUnlistedIds(
  client: BugzillaClient,
  visible: readonly number[],
  options: { after?: number; above?: number; limit?: number } = {},
): Promise<{ faults: BugFault[]; unprobed: IdRange | null }> {
  const after = options.after ?? 0;
  const above = options.above ?? 20;
  const limit = options.limit ?? 5000;
  const seen = new Set(visible);
  const highest = visible.reduce((max, id) => Math.max(max, id), after);
  // Gaps are collected up to the limit only: a source listing ids 1 and 2^31−1 leaves a gap of
  // two thousand million ids, which is reported as not probed instead of being walked.
  const gaps: number[] = [];
  let unprobedFrom: number | null = null;
  for (let id = after + 1; id < highest; id++) {
    if (seen.has(id)) continue;
    if (gaps.length >= limit) {
      unprobedFrom = id;
      break;
    }
    gaps.push(id);
  }
  const faults: BugFault[] = [];
  const ask = async (ids: readonly number[]) => {
    const found = await Promise.all(ids.map((id) => readBugsSplitting(client, [id], { include_fields: 'id' })));
    return found.flatMap((answer) => answer.faults).filter((fault) => fault.code !== NOT_A_BUG);
  };
  const probed = gaps;
  faults.push(...(await ask(probed)));
  if (unprobedFrom !== null) return { faults, unprobed: { from: unprobedFrom, to: highest - 1 } };
  // Above the highest visible id: `above` ids at a time, until a round without a bug.
  for (let next = highest + 1, budget = limit - probed.length; budget > 0; ) {
    const ids = Array.from({ length: Math.min(above, budget) }, (_, offset) => next + offset);
    const hidden = await ask(ids);
    faults.push(...hidden);
    budget -= ids.length;
    next += ids.length;
    if (hidden.length === 0) break;
  }
  return { faults, unprobed: null };
}
