import { SearchIndex } from '../../domain/search/searchIndex.ts';
import type { DeferredPart } from '../../domain/search/snapshotColumns.ts';
import { legacyValueResolver } from '../bug/legacyBugValues.ts';
import { loadSnapshot, type SnapshotPointer } from './searchIndexStore.ts';

/**
 * The search index as the current snapshot holds it (an empty one when there is none yet), with
 * the pointer it came from and a reader for each part the snapshot stores apart (the index waits
 * for those: `index.attachPart`); the change log since is the caller's to apply.
 */
export async function loadStoredIndex(): Promise<{
  index: SearchIndex;
  pointer: SnapshotPointer | null;
  parts: Partial<Record<DeferredPart, () => Promise<Uint8Array>>>;
}> {
  const stored = await loadSnapshot();
  if (!stored) return { index: new SearchIndex(), pointer: null, parts: {} };
  const json = stored.snapshot instanceof Uint8Array ? undefined : stored.snapshot;
  // A JSON snapshot of version 1 held versions and milestones by name (legacyBugValues.ts).
  const legacy = json && json.version < 2 ? await legacyValueResolver() : undefined;
  return {
    index: SearchIndex.fromSnapshot(stored.snapshot, legacy),
    pointer: stored.pointer,
    parts: stored.parts,
  };
}
