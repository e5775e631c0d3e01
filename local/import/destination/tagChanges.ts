import * as z from 'zod';
import { loadExistingBug } from '../../../shared/storage/bug/bugImportStore.ts';
import { chunksOf, orderedMap, Semaphore } from '../source/concurrency.ts';
import { type BugzillaClient, readBugsSplitting, readComments } from '../source/index.ts';
import { idSchema, strings } from '../source/records/wireValues.ts';

/**
 * Comment tags and personal tags change on 5.x without moving the bug's `last_change_time`
 * (Bugzilla 5.2 writes them apart from the bug), so an update that asks only for changed bugs
 * never sees them. For `candidates` (bugs that carry tags on the source, by search, or on the
 * target, by the import's record), this reads what the source says of their tags now, two
 * requests per 100 bugs (Get Bug with `include_fields=id,tags` and their comments), compares it
 * with what the target holds, and returns the ids whose tags differ: those are written again.
 */
const tagsOnly = z.array(z.object({ id: idSchema, tags: strings }));
const reads = new Semaphore(16);

const same = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((tag, index) => tag === [...b].sort()[index]);

export async function bugsWithChangedTags(
  source: BugzillaClient,
  candidates: readonly number[],
  accountId: number,
): Promise<number[]> {
  const changed: number[] = [];
  const ahead = Math.max(2, Math.floor(source.connections / 2));
  const batches = orderedMap(chunksOf(candidates, 100), ahead, async (chunk) => {
    const read = await readBugsSplitting(source, chunk, { include_fields: 'id,tags' });
    const bugs = tagsOnly.parse(read.bugs);
    const comments = await readComments(
      source,
      bugs.map((bug) => bug.id),
    );
    return { bugs, comments };
  });
  for await (const { bugs, comments } of batches) {
    const existing = await Promise.all(bugs.map((bug) => reads.run(() => loadExistingBug(bug.id))));
    bugs.forEach((bug, index) => {
      const before = existing[index];
      if (!before) return;
      const onSource = new Map((comments.get(bug.id) ?? []).map((comment) => [comment.id, comment.tags]));
      const commentIds = new Set([...onSource.keys(), ...before.commentTags.keys()]);
      const differs =
        !same(bug.tags, before.personalTags[String(accountId)] ?? []) ||
        [...commentIds].some((id) => !same(onSource.get(id) ?? [], before.commentTags.get(id) ?? []));
      if (differs) changed.push(bug.id);
    });
  }
  return changed.sort((a, b) => a - b);
}
