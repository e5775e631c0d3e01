import { SearchIndex } from '../../domain/search/searchIndex.ts';
import { legacyValueResolver } from '../bug/legacyBugValues.ts';
import { loadSnapshot, type SnapshotPointer } from './searchIndexStore.ts';

/**
 * The search index as the current snapshot holds it (an empty one when there is none yet), with
 * the pointer it came from; the change log since is the caller's to apply.
 */
export async function loadStoredIndex(): Promise<{ index: SearchIndex; pointer: SnapshotPointer | null }> {
  const stored = await loadSnapshot();
  if (!stored) return { index: new SearchIndex(), pointer: null };
  const json = stored.snapshot instanceof Uint8Array ? undefined : stored.snapshot;
  // A JSON snapshot of version 1 held versions and milestones by name (legacyBugValues.ts).
  const legacy = json && json.version < 2 ? await legacyValueResolver() : undefined;
  return { index: SearchIndex.fromSnapshot(stored.snapshot, legacy), pointer: stored.pointer };
}
