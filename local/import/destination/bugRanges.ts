import type { ImportState } from '../../../shared/storage/instance/importStateStore.ts';
import { chunksOf, idChunks, orderedMap } from '../source/concurrency.ts';
import { type BugBundle, type BugzillaClient, changedBugIds, readBundle, visibleBugIds } from '../source/index.ts';
import type { ModeDecision } from './importMode.ts';

/**
 * Which bugs a run reads, in batches. A first import or its resume learns the ids of the bugs the
 * account can see after the checkpoint by search first (visibleBugIds), and never reads past the
 * highest of them. From a source whose Get Bug honours `permissive` (Tracker, Harmony/BMO) the
 * batches are then consecutive id ranges up to that id, so a bug in a group the account is not
 * in is reported by id (fault 102); from stock Bugzilla 5.0 and 5.2, where one such id fails a
 * whole batch, the batches hold only the ids the search found. An update reads the bugs the
 * source says changed at or after `since`.
 */
export interface BugPlan {
  bundles: AsyncGenerator<{ bundle: BugBundle; ids: number }>;
  /** Ids to go through, for the progress display. */
  total: number;
  lastBugId: number;
  /** Batches are in id order and cover every visible bug up to their last id: the checkpoint moves with them. */
  byRange: boolean;
}

export async function bugBundles(
  source: BugzillaClient,
  decision: ModeDecision,
  state: ImportState,
  batchSize: number,
  options: { permissive?: boolean } = {},
): Promise<BugPlan> {
  const ahead = Math.max(2, Math.floor(source.connections / 2));
  const read = (chunks: Iterable<number[]>) =>
    (async function* () {
      for await (const bundle of orderedMap(chunks, ahead, (chunk) => readBundle(source, chunk)))
        yield { bundle, ids: bundle.range.to - bundle.range.from + 1 };
    })();
  if (decision.since) {
    const ids = await changedBugIds(source, decision.since);
    return {
      bundles: (async function* () {
        for await (const bundle of orderedMap(chunksOf(ids, batchSize), ahead, (chunk) => readBundle(source, chunk)))
          yield { bundle, ids: bundle.bugs.length + bundle.faults.length + bundle.missing.length };
      })(),
      total: ids.length,
      lastBugId: Math.max(state.lastBugId, ...ids),
      byRange: false,
    };
  }
  const ids = await visibleBugIds(source, state.checkpoint);
  const highest = ids.at(-1) ?? 0;
  if (options.permissive) {
    const range = { from: state.checkpoint + 1, to: highest };
    return {
      bundles: read(range.from > range.to ? [] : idChunks(range, batchSize)),
      total: Math.max(0, range.to - range.from + 1),
      lastBugId: Math.max(highest, state.checkpoint),
      byRange: true,
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
  };
}
