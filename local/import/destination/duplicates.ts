import { sortedIds } from '../../../shared/domain/bug/bug.ts';
import { setBugDuplicates } from '../../../shared/storage/bug/bugImportStore.ts';
import { loadBugs } from '../../../shared/storage/bug/bugStore.ts';
import type { ConvertedBug } from './convertBug.ts';

/**
 * Bugzilla 5.0 and 5.2 do not list a bug's duplicates (only each duplicate's `dupe_of`), and a
 * duplicate may come before or after its bug. Bugzilla writes "*** Bug X has been marked as a
 * duplicate of this bug. ***" on the bug whenever X is marked, so those comments name the
 * candidates: a candidate already written (or in the same batch) counts if its `dupe_of` still
 * names the bug; a duplicate written after its bug adds itself to the bug already in the table.
 * Both work from what the table holds, so a resumed run gets them right too.
 */
export async function fillDuplicates(batch: ConvertedBug[], dryRun: boolean): Promise<void> {
  const inBatch = new Map(batch.map((entry) => [entry.bug.id, entry.bug]));
  const candidates = new Map<number, number[]>();
  for (const { bug, comments } of batch)
    candidates.set(
      bug.id,
      comments.flatMap((comment) =>
        comment.commentType === 'has_dupe' && comment.extraData !== undefined ? [comment.extraData] : [],
      ),
    );
  const elsewhere = [...candidates.values()].flat().filter((id) => !inBatch.has(id));
  const earlier = await loadBugs(elsewhere);
  for (const { bug } of batch) {
    const found = (candidates.get(bug.id) ?? []).filter(
      (id) => (inBatch.get(id) ?? earlier.get(id)?.bug)?.dupeOf === bug.id,
    );
    bug.duplicates = sortedIds([...bug.duplicates, ...found]);
  }
  // Duplicates of bugs written by an earlier batch: the bug in the table learns of them.
  const targets = batch.flatMap(({ bug }) =>
    bug.dupeOf !== null && !inBatch.has(bug.dupeOf) ? [{ id: bug.id, of: bug.dupeOf }] : [],
  );
  if (targets.length === 0) return;
  const stored = await loadBugs(targets.map((target) => target.of));
  const current = new Map([...stored].map(([id, { bug }]) => [id, bug.duplicates]));
  for (const { id, of } of targets) {
    const known = current.get(of);
    if (!known || known.includes(id) || dryRun) continue;
    const duplicates = sortedIds([...known, id]);
    await setBugDuplicates(of, duplicates);
    current.set(of, duplicates);
  }
}
