import type { ImportState } from '../../../shared/storage/instance/importStateStore.ts';
import { chunksOf, orderedMap } from '../source/concurrency.ts';
import {
  type BugBundle,
  type BugzillaClient,
  changedBugIds,
  highestBugId,
  readBugBundles,
  readBundle,
} from '../source/index.ts';
import type { ModeDecision } from './importMode.ts';

/**
 * Which bugs a run reads, in batches: a first import or its resume reads ids from after the
 * checkpoint to the highest id the account can see, plus one batch beyond it (bugs above the
 * highest visible one are hidden, not absent: the faults say so); an update reads the bugs the
 * source says changed at or after `since`.
 */
export interface BugPlan {
  bundles: AsyncGenerator<{ bundle: BugBundle; ids: number }>;
  /** Ids to go through, for the progress display. */
  total: number;
  lastBugId: number;
  /** Batches are consecutive id ranges: the checkpoint moves with them. */
  byRange: boolean;
}

export async function bugBundles(
  source: BugzillaClient,
  decision: ModeDecision,
  state: ImportState,
  batchSize: number,
): Promise<BugPlan> {
  const ahead = Math.max(2, Math.floor(source.connections / 2));
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
  const highest = await highestBugId(source);
  const range = { from: state.checkpoint + 1, to: highest === 0 ? 0 : highest + batchSize };
  return {
    bundles: (async function* () {
      if (range.from > range.to) return;
      for await (const bundle of readBugBundles(source, range, { batchSize, ahead }))
        yield { bundle, ids: bundle.range.to - bundle.range.from + 1 };
    })(),
    total: Math.max(0, range.to - range.from + 1),
    lastBugId: Math.max(highest, state.checkpoint),
    byRange: true,
  };
}
