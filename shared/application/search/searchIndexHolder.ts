import { knownPrivateAttachments } from '../../domain/bug/privateActivity.ts';
import type { DeferredPart, IndexDocument } from '../../domain/search/index/columns.ts';
import { IndexPartPending, type SearchIndex } from '../../domain/search/index/searchIndex.ts';
import { BugCopyCache } from '../../domain/search/page/bugCopyCache.ts';
import { RenderedBugs } from '../../domain/search/page/renderedBugs.ts';
import { attachIndexPart } from '../../domain/search/snapshot/indexSnapshot.ts';
import { logger } from '../../observability/logger.ts';
import { recordSearchIndexCatchUp, recordSearchIndexLoad } from '../../observability/metrics.ts';
import { routineOutputOff } from '../../observability/routineOutput.ts';
import { deepFreeze } from '../../storage/deepFreeze.ts';
import { tableName } from '../../storage/dynamoClient.ts';
import { loadPrivateCommentCounts } from '../../storage/search/privateCommentCounts.ts';
import { LOG_OVERLAP_MS, readChangeLog, type SnapshotPointer } from '../../storage/search/searchIndexStore.ts';
import { loadStoredIndex } from '../../storage/search/storedSearchIndex.ts';

/**
 * The search index of this function instance (docs/data-model.md §8.7). The first search loads
 * the snapshot's core and the change log since it, and answers; the parts the snapshot stores
 * apart (field history, comment words, summary trigrams: index/columns.ts DEFERRED_PARTS) are read
 * from the next search on, and a search that needs one before it is in waits for it (searchWithParts). Every
 * search after that first reads the change log
 * since the index's high-water mark (minus an overlap for late commits), strongly consistent, so
 * a bug written by any request that has returned is found as it now is: read-your-writes across
 * instances. Keyed by table, so one process can serve several test tables.
 *
 * Bugs written around the change log (an import's bulk writes) reach instances through a snapshot
 * instead: its writer appends a notice with the snapshot's sequence number to the change log,
 * which the catch-up reads anyway, so learning of it costs no read. An instance whose index is
 * built on an older snapshot then loads the current one into a new index, catches it up, and
 * swaps it in, keeping its bug copies and rendered bugs (keyed by revision, still true); the
 * request that saw the notice, and those after it, wait for the new index. The compactor's
 * snapshots carry no notice: they hold nothing the instances lack.
 */
interface Holder {
  loading: Promise<Loaded>;
  stats: IndexStats;
  /** Whole bugs as the change log brought them or a page read them (bugCopyCache.ts). */
  copies: BugCopyCache;
  /** Their JSON as earlier pages showed them (renderedBugs.ts). */
  rendered: RenderedBugs;
  /** Whether `loading` had settled: a search that found it so is not the new instance's first. */
  loaded?: boolean;
}

/**
 * Bugs a search instance keeps to render pages without reading them again: a 1,000-bug page is
 * about 1 MB of bug items, and a dashboard asks for the same pages over and over. At roughly
 * 1 KB a bug this bounds the copies to some 50 MB beside the index.
 */
const BUG_COPIES = 50_000;
/** Characters of rendered bug JSON kept (renderedBugs.ts): about 64 MB, some 45,000 bugs as the default fields show them. */
const RENDERED_CHARACTERS = 64_000_000;

/**
 * `TRACKER_SEARCH_KEEP=off` keeps nothing between searches but the index itself: no bug copies,
 * no rendered bugs, no criterion results. For an installation short of memory, and for the
 * benchmark's "nothing kept" column, which shows what a search costs the first time.
 */
const keeps = () => process.env.TRACKER_SEARCH_KEEP !== 'off';

export interface IndexStats {
  loadedAt: number;
  loadMs: number;
  /** Where the last load went (ms): reading the core, inflating it, decoding it, the change log after it. */
  phases: { readMs: number; inflateMs: number; decodeMs: number; catchUpMs: number };
  /** How long each deferred part took to come after it was asked for (ms). */
  partMs: Partial<Record<DeferredPart, number>>;
  snapshotBugs: number;
  catchUps: number;
  lastCatchUpReads: number;
}

/** An index with the snapshot it was built on. */
interface Loaded {
  index: SearchIndex;
  /** The snapshot's generation (null: none), and its sequence or the highest announced since that this index holds. */
  basis: { generation: string | null; sequence: number };
  /** The parts still being read, each settled when it is in the index (or failed to come). */
  parts: Map<DeferredPart, Promise<void>>;
  /** Starts reading the parts (from the second search on: they are not on the first one's path). */
  readParts(): void;
}

const holders = new Map<string, Holder>();

/** `announced`: a snapshot sequence the index must hold (a notice that asked for this load). */
async function loadIndex(stats: IndexStats, copies: BugCopyCache, announced = 0): Promise<Loaded> {
  const started = performance.now();
  const reload = announced > 0;
  for (;;) {
    const loaded = await loadSnapshotIndex(stats);
    const snapshotMark = loaded.index.highWater;
    const catchingUp = performance.now();
    // Should the pointer read be older than the notice (a writer that raced the importer's), the
    // notice is not asked for again while it stays in the overlap.
    loaded.basis.sequence = Math.max(loaded.basis.sequence, announced);
    // A snapshot announced between reading the pointer and the change log: load again from it.
    announced = await catchUp(loaded, stats, copies);
    stats.phases.catchUpMs = performance.now() - catchingUp;
    if (announced > 0) continue;
    stats.loadMs = performance.now() - started;
    // The parts are read from the next search on (or now by one that needs them): read beside the
    // first search, they took the CPU its answer needed (4 s of a million-bug instance's first 10).
    // One line per instance and reload: how long the index took, and how much change log it
    // replayed after its snapshot (metrics.ts ChangeLogLag).
    recordSearchIndexLoad(Math.round(stats.loadMs), snapshotMark > 0 ? Date.now() - snapshotMark : undefined);
    if (!routineOutputOff())
      logger.info(reload ? 'search index reloaded' : 'search index loaded', {
        bugs: loaded.index.size,
        snapshotBugs: stats.snapshotBugs,
        ms: Math.round(stats.loadMs),
        ...Object.fromEntries(Object.entries(stats.phases).map(([phase, ms]) => [phase, Math.round(ms)])),
      });
    return loaded;
  }
}

async function loadSnapshotIndex(stats: IndexStats): Promise<Loaded> {
  const { index, pointer, parts: readers, timings } = await loadStoredIndex();
  stats.phases = { ...timings, catchUpMs: 0 };
  stats.partMs = {};
  index.leafTables.enabled = keeps();
  stats.snapshotBugs = index.size;
  // A snapshot older than the private comment counts: read them once, so outsiders' comment counts
  // need no comment reads (the compactor's next snapshot holds them).
  const unknownCounts = index.bugsWithUnknownCommentCounts();
  if (unknownCounts.length > 0)
    for (const [bugId, count] of await loadPrivateCommentCounts(unknownCounts))
      index.setPrivateCommentCount(bugId, count);
  const parts = new Map<DeferredPart, Promise<void>>();
  const readParts = () => {
    for (const part of index.missingParts) {
      const read = readers[part];
      if (!read || parts.has(part)) continue;
      const started = performance.now();
      const reading = read().then((bytes) => {
        attachIndexPart(index, part, bytes);
        stats.partMs[part] = performance.now() - started;
        if (!routineOutputOff())
          logger.info('search index part loaded', { part, ms: Math.round(performance.now() - started) });
      });
      // Awaited by the searches that need the part; a failure is theirs to report (and drops the index).
      reading.catch(() => undefined);
      parts.set(part, reading);
    }
  };
  return { index, basis: basisOf(pointer), parts, readParts };
}

const basisOf = (pointer: SnapshotPointer | null): Loaded['basis'] => ({
  generation: pointer?.generation ?? null,
  sequence: pointer?.sequence ?? 0,
});

/**
 * How far behind this instance's clock a writer's stamp may be and still be read: a strongly
 * consistent read started now sees every write committed before now, and a writer stamps its entry
 * milliseconds before it commits, so anything stamped more than this long ago and not yet seen
 * cannot appear any more. Without it, a quiet installation would re-read every hour partition
 * since its last write on every search.
 */
const SETTLED_AFTER_MS = 60_000;

/**
 * Applies the change log since the mark. Answers the sequence of a snapshot it announces that is
 * newer than the index's (a reload is due), or 0.
 */
async function catchUp(loaded: Loaded, stats: IndexStats, copies: BugCopyCache): Promise<number> {
  const { index } = loaded;
  const started = Date.now();
  const since = index.highWater === 0 ? 0 : index.highWater - LOG_OVERLAP_MS;
  const page = await readChangeLog(since);
  for (const document of page.documents) {
    // The overlap re-reads entries already applied; only new revisions are kept. A bug written
    // before bugs listed their private attachments is no page's copy: read, storage completes it.
    if (index.apply(document) && knownPrivateAttachments(document.bug) !== undefined)
      copies.offer(deepFreeze(copyOf(document)));
  }
  index.highWater = Math.max(index.highWater, page.newest, started - SETTLED_AFTER_MS);
  stats.catchUps++;
  stats.lastCatchUpReads = page.reads;
  recordSearchIndexCatchUp(index.size, page.documents.length);
  const announced = Math.max(0, ...page.newSnapshots);
  return announced > loaded.basis.sequence ? announced : 0;
}

const copyOf = (document: IndexDocument) => ({ bug: document.bug, rev: document.rev });

export interface SearchState {
  index: SearchIndex;
  /** Resolves when the index holds this part (at once when it does); rejects when it cannot come. */
  partLoaded(part: DeferredPart): Promise<void>;
  /** The snapshot the index is built on (the compactor's `basis`, searchCompactor.ts). */
  basis: Loaded['basis'];
  copies: BugCopyCache;
  rendered: RenderedBugs;
}

/** The index, current as of this call, and the bug copies that go with it. */
export async function currentSearchState(): Promise<SearchState> {
  const table = tableName();
  const holder = holders.get(table);
  if (!holder) {
    const stats: IndexStats = {
      loadedAt: Date.now(),
      loadMs: 0,
      phases: { readMs: 0, inflateMs: 0, decodeMs: 0, catchUpMs: 0 },
      partMs: {},
      snapshotBugs: 0,
      catchUps: 0,
      lastCatchUpReads: 0,
    };
    const copies = new BugCopyCache(keeps() ? BUG_COPIES : 0);
    const created: Holder = {
      loading: loadIndex(stats, copies),
      stats,
      copies,
      rendered: new RenderedBugs(keeps() ? RENDERED_CHARACTERS : 0),
    };
    holders.set(table, created);
    created.loading.then(
      () => {
        created.loaded = true;
      },
      () => holders.delete(table),
    );
    return stateOf(table, created, await created.loading);
  }
  const loading = holder.loading;
  // Searches that waited for the first load (the first one's own prefetch among them) do not
  // start the parts: on two cores, reading them beside the first answer cost it a second.
  const first = holder.loaded !== true;
  const loaded = await loading;
  if (!first) loaded.readParts();
  const announced = await catchUp(loaded, holder.stats, holder.copies);
  if (announced > 0) {
    // One reload however many requests saw the notice; until it is in they wait, since the
    // index they hold lacks what the snapshot brought. A failed reload leaves the old index, and
    // the next search tries again (the error reaches this request).
    if (holder.loading === loading) {
      const reloading = loadIndex(holder.stats, holder.copies, announced);
      holder.loading = reloading;
      reloading.catch(() => {
        if (holder.loading === reloading) holder.loading = loading;
      });
    }
    return stateOf(table, holder, await holder.loading);
  }
  return stateOf(table, holder, loaded);
}

function stateOf(table: string, holder: Holder, loaded: Loaded): SearchState {
  const { index, basis } = loaded;
  const partLoaded = async (part: DeferredPart) => {
    if (!index.missingParts.includes(part)) return;
    loaded.readParts();
    const reading = loaded.parts.get(part);
    if (!reading) throw new Error(`the search snapshot has no reader for its ${part} part`);
    try {
      await reading;
    } catch (error) {
      // The part cannot come (its generation deleted under a slow reader, storage failing): the
      // next search starts from the current snapshot instead.
      if (holders.get(table) === holder) holders.delete(table);
      throw error;
    }
  };
  return { index, basis, partLoaded, copies: holder.copies, rendered: holder.rendered };
}

/**
 * Runs a search over the state's index; a search that needs a part still being read
 * (IndexPartPending) waits for it and runs again. Searches change nothing, so running one again
 * is safe.
 */
export async function searchWithParts<T>(state: SearchState, search: () => T | Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await search();
    } catch (error) {
      if (!(error instanceof IndexPartPending)) throw error;
      await state.partLoaded(error.part);
    }
  }
}

/** Waits for every part of the state's index (the compactor writes all of them). */
export async function wholeIndex(state: SearchState): Promise<SearchIndex> {
  for (const part of state.index.missingParts) await state.partLoaded(part);
  return state.index;
}

/** After the compactor wrote `pointer` from `state`'s index: later compactions build on it. */
export function adoptSnapshot(state: SearchState, pointer: SnapshotPointer): void {
  state.basis.generation = pointer.generation;
  state.basis.sequence = Math.max(state.basis.sequence, pointer.sequence);
}

export const currentSearchIndex = async (): Promise<SearchIndex> => (await currentSearchState()).index;

/** How this instance's index was loaded (the benchmark reports it), or undefined before the first search. */
export function searchIndexStats(): IndexStats | undefined {
  return holders.get(tableName())?.stats;
}

/** Forgets this instance's index (tests of the cold path; the compactor when another writer's snapshot superseded it). */
export function dropSearchIndex(): void {
  holders.delete(tableName());
}
