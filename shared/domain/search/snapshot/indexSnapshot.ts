/**
 * Reading and writing a whole search index as a snapshot: the codec (snapshotColumns.ts,
 * snapshotFormat.ts, and legacySnapshot.ts for the JSON of older snapshots) reads the index's
 * columns and writes them into it; the index knows nothing of it.
 */
import type { LegacyValueId } from '../../catalog/bugValues.ts';
import type { DeferredPart } from '../index/columns.ts';
import { SearchIndex } from '../index/searchIndex.ts';
import { FramedBytes, type SnapshotBytes } from './framedBytes.ts';
import { readLegacySnapshot, type SnapshotColumns } from './legacySnapshot.ts';
import {
  readSnapshot,
  readSnapshotPart,
  type SnapshotParts,
  writeSnapshotBytes,
  writeSnapshotParts,
} from './snapshotColumns.ts';

/** The binary snapshot of an index (snapshotFormat.ts), uncompressed. */
export const snapshotOf = (index: SearchIndex): Uint8Array => writeSnapshotBytes(index);

/** The same as a core and one blob per deferred part, for instances that read the parts later. */
export const snapshotPartsOf = (index: SearchIndex): SnapshotParts => writeSnapshotParts(index);

/**
 * An index from a binary snapshot (whole, or a core whose parts come by attachIndexPart), or from
 * the JSON of snapshots before it (legacySnapshot.ts); `legacyValueId` reads a JSON snapshot of
 * version 1, which held versions and milestones by name: the id each name stands for in the bug's
 * product (legacyBugValues.ts).
 */
export function indexFromSnapshot(
  snapshot: SnapshotBytes | SnapshotColumns,
  legacyValueId?: LegacyValueId,
): SearchIndex {
  const index = new SearchIndex();
  // A core: the parts stored apart are awaited, and changes to them kept until they come.
  if (snapshot instanceof Uint8Array || snapshot instanceof FramedBytes)
    index.awaitParts(readSnapshot(index, snapshot));
  else readLegacySnapshot(index, snapshot, legacyValueId);
  return index;
}

/**
 * An index from a binary snapshot just read for it, taking over its memory: its columns stay
 * where the snapshot holds them (snapshotFormat.ts, `adopt`), so nothing else may use `snapshot`.
 */
export function adoptIndexSnapshot(snapshot: SnapshotBytes): SearchIndex {
  const index = new SearchIndex();
  index.awaitParts(readSnapshot(index, snapshot, { adopt: true }));
  return index;
}

/** Reads a part its snapshot stored apart into the index, which then replays what was applied since. */
export function attachIndexPart(index: SearchIndex, part: DeferredPart, bytes: SnapshotBytes): void {
  if (!index.awaits(part)) return;
  readSnapshotPart(index, part, bytes);
  index.partAttached(part);
}
