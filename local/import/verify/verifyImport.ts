import * as z from 'zod';
import type { Query, RequestOptions } from '../source/bugzillaClient.ts';
import { chunksOf, orderedMap, Semaphore } from '../source/concurrency.ts';
import { type BugzillaClient, visibleBugIds } from '../source/index.ts';
import type { BodyReading } from './bodyChecksums.ts';
import { compareSnapshots } from './compareSnapshots.ts';
import type { Difference, DifferenceKind } from './differences.ts';
import { readSnapshots, type SideBatch } from './readSnapshots.ts';

/**
 * `--verify` / `--verify-sample N`: reads bugs from both sides through the REST API and lists
 * every difference in fields, flags, comments, attachments (bodies by checksum) and history.
 *
 * Which bugs: `ids` (the bugs an import wrote), else a `sample` of N distinct ids drawn from
 * 1 … the source's highest bug id, else every id up to the higher of both sides' highest, so a
 * bug only the target has is found too. An id with no bug on either side is counted, not a
 * difference; a bug one side will not show the reading account (102) is listed as unreadable.
 *
 * Load: at most `connections` requests to each side at once, whatever the clients allow; bugs go
 * in batches of `batchSize`, both sides of a batch read at the same time.
 */

export interface VerifyOptions {
  source: BugzillaClient;
  target: BugzillaClient;
  ids?: readonly number[];
  sample?: number;
  /** Requests in flight to each side at most (default: the source client's connections). */
  connections?: number;
  /** Bugs per batch (default 50). */
  batchSize?: number;
  /** Attachment bodies read in one request at most, in bytes (default 2 MB). */
  bodyBudgetBytes?: number;
  /** Groups of bodies in memory at once across both sides (default 4): bounds memory to about slots × budget. */
  bodySlots?: number;
  /**
   * Compare the readers' personal tags (per-user): only right when one login reads both sides.
   * Default: asked of both sides (`/rest/whoami`); off when either cannot say.
   */
  personalTags?: boolean;
  onProgress?: (progress: VerifyProgress) => void;
  /** For tests: the random numbers a sample is drawn with. */
  random?: () => number;
}

export interface VerifyProgress {
  done: number;
  total: number;
  differences: number;
  bugsWithDifferences: number;
}

export interface BugDifferences {
  id: number;
  differences: Difference[];
}

export interface Unreadable {
  side: 'source' | 'target';
  kind: 'bug' | 'attachment body';
  id: number;
  reason: string;
}

export interface VerifyResult {
  mode: 'ids' | 'sample' | 'all';
  /** Ids looked at. */
  checked: number;
  /** Ids with a bug on at least one side, read from both. */
  compared: number;
  /** Ids with no bug on either side. */
  absent: number;
  unreadable: Unreadable[];
  /** The bugs that differ, in id order. */
  bugs: BugDifferences[];
  totals: {
    differences: number;
    bugsWithDifferences: number;
    byKind: Record<DifferenceKind, number>;
    /** What was compared, counted on the source side. */
    compared: { comments: number; attachments: number; flags: number; historyEntries: number };
  };
  /** What was left out and why (e.g. personal tags). */
  notes: string[];
  /** No difference and nothing unreadable. */
  equal: boolean;
  seconds: number;
}

export async function verifyImport(options: VerifyOptions): Promise<VerifyResult> {
  const started = Date.now();
  const connections = Math.max(1, options.connections ?? options.source.connections);
  const source = limited(options.source, connections);
  const target = limited(options.target, connections);
  const bodies: BodyReading = {
    budgetBytes: options.bodyBudgetBytes ?? 2_000_000,
    slots: new Semaphore(options.bodySlots ?? 4),
  };
  const notes: string[] = [];
  const personalTags = options.personalTags ?? (await sameReader(source, target, notes));

  const { mode, ids } = await idsToVerify(source, target, options);
  const result: VerifyResult = {
    mode,
    checked: ids.length,
    compared: 0,
    absent: 0,
    unreadable: [],
    bugs: [],
    totals: {
      differences: 0,
      bugsWithDifferences: 0,
      byKind: { bug: 0, flag: 0, comment: 0, attachment: 0, history: 0 },
      compared: { comments: 0, attachments: 0, flags: 0, historyEntries: 0 },
    },
    notes,
    equal: true,
    seconds: 0,
  };
  // Each batch makes up to four requests per side at once (bugs, then comments, history and
  // attachments together), so this many batches keep the connections busy.
  const ahead = Math.max(1, Math.ceil(connections / 3));
  const batches = orderedMap(chunksOf(ids, options.batchSize ?? 50), ahead, async (batch) => {
    const [left, right] = await Promise.all([
      readSnapshots(source, batch, bodies),
      readSnapshots(target, batch, bodies),
    ]);
    return { batch, left, right };
  });
  let done = 0;
  for await (const { batch, left, right } of batches) {
    record(result, batch, left, right, personalTags);
    done += batch.length;
    options.onProgress?.({
      done,
      total: ids.length,
      differences: result.totals.differences,
      bugsWithDifferences: result.totals.bugsWithDifferences,
    });
  }
  result.equal = result.totals.differences === 0 && result.unreadable.length === 0;
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

function record(result: VerifyResult, batch: number[], left: SideBatch, right: SideBatch, personalTags: boolean) {
  const unreadable = new Set<number>();
  for (const [side, read] of [
    ['source', left],
    ['target', right],
  ] as const) {
    for (const fault of read.faults) {
      unreadable.add(fault.id);
      result.unreadable.push({ side, kind: 'bug', id: fault.id, reason: `${fault.code}: ${fault.message}` });
    }
    for (const body of read.unreadableBodies)
      result.unreadable.push({ side, kind: 'attachment body', id: body.id, reason: body.reason });
  }
  for (const id of batch) {
    if (unreadable.has(id)) continue;
    const mine = left.snapshots.get(id) ?? null;
    const theirs = right.snapshots.get(id) ?? null;
    if (mine === null && theirs === null) {
      result.absent++;
      continue;
    }
    result.compared++;
    if (mine) {
      const counted = result.totals.compared;
      counted.comments += mine.comments.length;
      counted.attachments += mine.attachments.length;
      counted.flags += mine.flags.length + mine.attachments.reduce((sum, item) => sum + item.flags.length, 0);
      counted.historyEntries += mine.history.length;
    }
    const differences = compareSnapshots(id, mine, theirs, { personalTags });
    if (differences.length === 0) continue;
    result.bugs.push({ id, differences });
    result.totals.bugsWithDifferences++;
    result.totals.differences += differences.length;
    for (const difference of differences) result.totals.byKind[difference.kind]++;
  }
}

async function idsToVerify(
  source: BugzillaClient,
  target: BugzillaClient,
  options: VerifyOptions,
): Promise<{ mode: VerifyResult['mode']; ids: number[] }> {
  if (options.ids) return { mode: 'ids', ids: [...new Set(options.ids)].sort((a, b) => a - b) };
  // Ids by search on both sides: stock 5.x fails a Get Bug that names an id without a bug.
  const [sourceIds, targetIds] = await Promise.all([visibleBugIds(source), visibleBugIds(target)]);
  if (options.sample !== undefined)
    return {
      mode: 'sample',
      ids: sampleIds(sourceIds.length, options.sample, options.random).map((index) => sourceIds[index - 1]),
    };
  return { mode: 'all', ids: [...new Set([...sourceIds, ...targetIds])].sort((a, b) => a - b) };
}

/**
 * `count` distinct ids from 1 … `highest`, ascending (Floyd's algorithm: `count` draws, whatever
 * the range). All of them when the range is no larger.
 */
export function sampleIds(highest: number, count: number, random: () => number = Math.random): number[] {
  if (count >= highest) return Array.from({ length: Math.max(0, highest) }, (_, index) => index + 1);
  const chosen = new Set<number>();
  for (let top = highest - count + 1; top <= highest; top++) {
    const pick = 1 + Math.floor(random() * top);
    chosen.add(chosen.has(pick) ? top : pick);
  }
  return [...chosen].sort((a, b) => a - b);
}

/** The same client with at most `connections` requests in flight through this wrapper. */
function limited(client: BugzillaClient, connections: number): BugzillaClient {
  const semaphore = new Semaphore(connections);
  return {
    baseUrl: client.baseUrl,
    connections: Math.min(connections, client.connections),
    stats: client.stats,
    get: <T>(path: string, query?: Query, options?: RequestOptions) =>
      semaphore.run(() => client.get<T>(path, query, options)),
  };
}

const whoami = z.object({ name: z.string() });

/** PER_USER (compareBug.ts): personal tags compare only when one login reads both sides. */
async function sameReader(source: BugzillaClient, target: BugzillaClient, notes: string[]): Promise<boolean> {
  const login = async (client: BugzillaClient) => {
    try {
      return whoami.parse(await client.get('/whoami')).name;
    } catch {
      return null; // Bugzilla 5.0 and 5.2 have no whoami.
    }
  };
  const [mine, theirs] = await Promise.all([login(source), login(target)]);
  if (mine !== null && mine === theirs) return true;
  notes.push(
    mine === null || theirs === null
      ? 'Personal tags were not compared: the reading accounts could not be told apart (no /rest/whoami).'
      : `Personal tags were not compared: ${mine} reads the source and ${theirs} the target, and each sees only their own.`,
  );
  return false;
}
