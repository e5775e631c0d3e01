import { SearchIndex } from '../../domain/search/index/searchIndex.ts';
import { snapshotPartsOf } from '../../domain/search/snapshot/indexSnapshot.ts';
import { logger } from '../../observability/logger.ts';
import { loadBugs, scanAllBugs } from '../../storage/bug/bugStore.ts';
import {
  LOG_OVERLAP_MS,
  loadSnapshotPointer,
  type SnapshotPointer,
  writeSnapshot,
} from '../../storage/search/searchIndexStore.ts';
import { backfillPrivateAttachments } from '../bug/privateActivityBackfill.ts';
import { adoptSnapshot, currentSearchState, dropSearchIndex, wholeIndex } from './searchIndexHolder.ts';

/**
 * Keeps the search snapshot current (docs/data-model.md §8.7): loads the index as any search
 * instance does (the previous snapshot plus the change log since), then writes it as the new
 * snapshot. Run on a schedule (every 10 minutes in the stack, every 5 minutes by `npm start`),
 * so a new instance replays minutes of changes, not days, and the change log can expire.
 *
 * Its snapshot replaces only the one its index is built on, and is not announced: running
 * instances already hold all it holds. Null when another writer's snapshot (an import's) became
 * current meanwhile: nothing is written then, and the next run builds on that one.
 */
export async function compactSearchIndex(): Promise<SnapshotPointer | null> {
  // First a bounded slice of the one-time backfill of bugs' private attachment lists
  // (privateActivityBackfill.ts); nothing once it is done. Its failure must not cost the snapshot:
  // it goes on from its saved position next time.
  const backfill = await backfillPrivateAttachments().catch((error: unknown) => {
    logger.error('private attachments backfill failed', { error: String(error) });
    return { done: false, stored: [] };
  });
  // No snapshot at all: an installation older than the search index, whose first bugs never
  // went through the change log. Rebuild once from the bug items.
  if (!(await loadSnapshotPointer())) return rebuildSearchSnapshotFromTable();
  const state = await currentSearchState();
  // The snapshot holds every part: the ones a cold load of this instance has not read yet first.
  const index = await wholeIndex(state);
  // The backfill does not raise revisions (the bugs did not change), so the change log does not
  // carry its lists: they enter the index here, and with it the snapshot every new instance loads.
  for (const { bugId, rev, marks } of backfill.stored) index.setPrivateAttachments(bugId, rev, marks);
  await rereadForPages(index).catch((error: unknown) =>
    logger.error('rereading bugs for search pages failed', { error: String(error) }),
  );
  const pointer = await writeSnapshot(snapshotPartsOf(index), { basis: state.basis.generation });
  if (pointer) adoptSnapshot(state, pointer);
  // Its notice brings that snapshot in on the next catch-up; an unannounced one (a seed's, the
  // rebuild's) only with a fresh load.
  else dropSearchIndex();
  return pointer;
}

/** Bugs reread per run: about 20 MB of reads, a few seconds; a million bugs are upgraded in an afternoon. */
const REREADS_PER_RUN = 20_000;

/**
 * A snapshot written before search pages were rendered from the index does not say which bugs its
 * columns give back exactly (indexedBugs.ts), so their pages read the table. Each run rereads a
 * slice of those bugs at the revision the index holds and lets the index decide; a bug written
 * since was decided by its write. Its failure must not cost the snapshot either.
 */
async function rereadForPages(index: SearchIndex): Promise<void> {
  const ids = index.bugsNotCheckedForReadBack(REREADS_PER_RUN);
  for (let start = 0; start < ids.length; start += 1_000) {
    const slice = ids.slice(start, start + 1_000);
    const stored = await loadBugs(slice);
    for (const { bug, rev } of stored.values()) index.takeFromTable(bug, rev);
    for (const id of slice) if (!stored.has(id)) index.markNotReadBack(id);
  }
  if (ids.length > 0) logger.info('reread bugs for search pages', { bugs: ids.length });
}

/** A new installation's snapshot: no bugs, and a high-water mark from before its first bug. */
export async function writeEmptySearchSnapshot(): Promise<SnapshotPointer> {
  const index = new SearchIndex();
  index.highWater = Date.now() - LOG_OVERLAP_MS;
  return writeSnapshot(snapshotPartsOf(index));
}

/**
 * Recovery only (an operator's tool, never a request): rebuilds the snapshot from every bug item
 * with a full table scan, for an installation whose snapshot was lost or whose change log
 * expired before a snapshot was written. Comment words and field history are not in bug items,
 * so they restart empty for the bugs rebuilt this way.
 */
async function rebuildSearchSnapshotFromTable(): Promise<SnapshotPointer> {
  const index = new SearchIndex();
  // Writes that land during the scan are in the change log after this mark and are replayed.
  index.highWater = Date.now() - LOG_OVERLAP_MS;
  for (const { bug, rev } of await scanAllBugs()) index.apply({ bug, rev });
  return writeSnapshot(snapshotPartsOf(index));
}
