import type { DeferredPart } from '../../domain/search/index/columns.ts';
import { SearchIndex } from '../../domain/search/index/searchIndex.ts';
import { FramedBytes, type SnapshotBytes } from '../../domain/search/snapshot/framedBytes.ts';
import { adoptIndexSnapshot, indexFromSnapshot } from '../../domain/search/snapshot/indexSnapshot.ts';
import { legacyValueResolver } from '../bug/legacyBugValues.ts';
import { loadSnapshot, type SnapshotPointer } from './searchIndexStore.ts';

/**
 * The search index as the current snapshot holds it (an empty one when there is none yet), with
 * the pointer it came from and a reader for each part the snapshot stores apart (the index waits
 * for those: `attachIndexPart`); the change log since is the caller's to apply.
 */
export async function loadStoredIndex(): Promise<{
  index: SearchIndex;
  pointer: SnapshotPointer | null;
  parts: Partial<Record<DeferredPart, () => Promise<SnapshotBytes>>>;
  /** Where the load went (ms): reading the core's chunks, inflating them, decoding the columns. */
  timings: { readMs: number; inflateMs: number; decodeMs: number };
}> {
  const stored = await loadSnapshot();
  if (!stored)
    return { index: new SearchIndex(), pointer: null, parts: {}, timings: { readMs: 0, inflateMs: 0, decodeMs: 0 } };
  const json =
    stored.snapshot instanceof Uint8Array || stored.snapshot instanceof FramedBytes ? undefined : stored.snapshot;
  // A JSON snapshot of version 1 held versions and milestones by name (legacyBugValues.ts).
  const legacy = json && json.version < 2 ? await legacyValueResolver() : undefined;
  const decoding = performance.now();
  // The snapshot's bytes were read for this index alone: it keeps its columns where they lie.
  const index = json ? indexFromSnapshot(json, legacy) : adoptIndexSnapshot(stored.snapshot as SnapshotBytes);
  const decodeMs = performance.now() - decoding;
  return { index, pointer: stored.pointer, parts: stored.parts, timings: { ...stored.timings, decodeMs } };
}
