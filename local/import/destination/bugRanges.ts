import type { ImportState } from '../../../shared/storage/instance/importStateStore.ts';
import { chunksOf, idChunks, orderedMap } from '../source/concurrency.ts';
import {
  type BugBundle,
  type BugFault,
  type BugzillaClient,
  changedBugIds,
  type IdRange,
  probeUnlistedIds,
  readBundle,
  taggedBugIds,
  visibleBugIds,
} from '../source/index.ts';
import type { ModeDecision } from './importMode.ts';
import { bugsWithChangedTags } from './tagChanges.ts';

/**
 * Which bugs a run reads, in batches. A first import or its resume learns the ids of the bugs the
 * account can see after the checkpoint by search first (visibleBugIds), and never reads past the
 * highest of them. From a source whose Get Bug honours `permissive` (Tracker, Harmony/BMO) the
 * batches are then consecutive id ranges up to that id, so a bug in a group the account is not
 * in is reported by id (fault 102); from stock Bugzilla 5.0 and 5.2, where one such id fails a
 * whole batch, the batches hold only the ids the search found; the ids between them are then
 * asked one by one (`unlisted`), so the bugs the account may not see are reported by id too. An
 * update reads the bugs the source says changed at or after `since`, and those whose comment or
 * personal tags changed (which does not move `last_change_time` on 5.x: tagChanges.ts).
 */
export interface BugPlan {
  bundles: AsyncGenerator<{ bundle: BugBundle; ids: number }>;
  /** Ids to go through, for the progress display. */
  total: number;
  lastBugId: number;
  /** Batches are in id order and cover every visible bug up to their last id: the checkpoint moves with them. */
  byRange: boolean;
  /** An update: the ids it will write again (what the target holds of them is replaced). */
  ids?: number[];
  /** An update: the bugs among `ids` brought because their tags changed, not their last_change_time. */
  tagChanged?: number[];
  /** After the batches, for a source whose search leaves hidden bugs out: what the ids it did not list are. */
  unlisted?: () => Promise<{ faults: BugFault[]; unprobed: IdRange | null }>;
  warnings: string[];
}

export interface PlanOptions {
  /** Get Bug honours `permissive` (Tracker, Harmony/BMO). */
  permissive?: boolean;
  /** For an update: look for tag changes, on these bugs known to carry tags and those the source finds. */
  tags?: { known: readonly number[]; accountId: number };
  /** At most this many unlisted ids are asked about (default 5,000). */
  probeLimit?: number;
}

export async function bugBundles(
  source: BugzillaClient,
  decision: ModeDecision,
  state: ImportState,
  batchSize: number,
  options: PlanOptions = {},
): Promise<BugPlan> {
  const ahead = Math.max(2, Math.floor(source.connections / 2));
  const read = (chunks: Iterable<number[]>) =>
    (async function* () {
      for await (const bundle of orderedMap(chunks, ahead, (chunk) => readBundle(source, chunk)))
        yield { bundle, ids: bundle.range.to - bundle.range.from + 1 };
    })();
  if (decision.since) {
    const changed = await changedBugIds(source, decision.since);
    const warnings: string[] = [];
    let tagChanged: number[] = [];
    if (options.tags) {
      const tagged = await taggedBugIds(source);
      warnings.push(...tagged.warnings);
      const already = new Set(changed);
      const candidates = [...new Set([...tagged.ids, ...options.tags.known])]
        .filter((id) => !already.has(id))
        .sort((a, b) => a - b);
      tagChanged = await bugsWithChangedTags(source, candidates, options.tags.accountId);
    }
    const ids = [...changed, ...tagChanged].sort((a, b) => a - b);
    return {
      bundles: (async function* () {
        for await (const bundle of orderedMap(chunksOf(ids, batchSize), ahead, (chunk) => readBundle(source, chunk)))
          yield { bundle, ids: bundle.bugs.length + bundle.faults.length + bundle.missing.length };
      })(),
      total: ids.length,
      lastBugId: Math.max(state.lastBugId, ...ids),
      byRange: false,
      ids,
      tagChanged,
      warnings,
    };
  }
  const ids = await visibleBugIds(source, state.checkpoint);
  const highest = ids.at(-1) ?? 0;
  if (options.permissive) {
    const windows = rangeWindows(ids, state.checkpoint + 1, highest, batchSize, options.probeLimit ?? 5000);
    return {
      bundles: read(windows.chunks()),
      total: windows.total,
      lastBugId: Math.max(highest, state.checkpoint),
      byRange: true,
      warnings: windows.skipped.map(
        (range) =>
          `Ids ${range.from}-${range.to} hold no bug the source's search lists, and were not asked about (more than ${options.probeLimit ?? 5000} such ids): bugs the account may not see among them are not listed below.`,
      ),
    };
  }
  return {
    bundles: (async function* () {
      for await (const { bundle } of read(chunksOf(ids, batchSize)))
        yield { bundle, ids: bundle.bugs.length + bundle.faults.length + bundle.missing.length };
    })(),
    total: ids.length,
    lastBugId: Math.max(highest, state.checkpoint),
    byRange: true,
    unlisted: () => probeUnlistedIds(source, ids, { after: state.checkpoint, limit: options.probeLimit }),
    warnings: [],
  };
}

/**
 * The batches of a read by id range (a source that honours `permissive`), bounded by what the
 * source's search lists (issue 41): consecutive windows of `size` ids from `from` to `to`, each
 * read if it holds a listed id; windows without one are read too (to report hidden bugs by id)
 * until `emptyBudget` ids of them were, and skipped after that, as `skipped` ranges. So a search
 * listing ids 1 and 2^31−1 costs two batches and the budget, not twenty million batches.
 */
export function rangeWindows(
  listed: readonly number[],
  from: number,
  to: number,
  size: number,
  emptyBudget: number,
): { chunks(): Generator<number[]>; total: number; skipped: IdRange[] } {
  const starts: number[] = [];
  const skipped: IdRange[] = [];
  let budget = emptyBudget;
  let total = 0;
  let index = 0;
  for (let start = from; start <= to; ) {
    const end = Math.min(to, start + size - 1);
    while (index < listed.length && listed[index] < start) index++;
    const holdsListed = index < listed.length && listed[index] <= end;
    if (holdsListed || budget >= end - start + 1) {
      if (!holdsListed) budget -= end - start + 1;
      starts.push(start);
      total += end - start + 1;
      start = end + 1;
      continue;
    }
    const next = index < listed.length ? listed[index] : to + 1;
    const nextStart = next > to ? to + 1 : from + Math.floor((next - from) / size) * size;
    skipped.push({ from: start, to: nextStart - 1 });
    start = nextStart;
  }
  return {
    *chunks() {
      for (const start of starts) yield* idChunks({ from: start, to: Math.min(to, start + size - 1) }, size);
    },
    total,
    skipped,
  };
}
