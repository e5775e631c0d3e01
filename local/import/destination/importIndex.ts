import type { Bug, HistoryEntry } from '../../../shared/domain/bug/bug.ts';
import { commentWords } from '../../../shared/domain/search/index/columns.ts';
import type { SearchIndex } from '../../../shared/domain/search/index/searchIndex.ts';
import { attachIndexPart, snapshotPartsOf } from '../../../shared/domain/search/snapshot/indexSnapshot.ts';
import { loadBugs, loadComments, loadHistory } from '../../../shared/storage/bug/bugStore.ts';
import { LOG_OVERLAP_MS, readChangeLog, writeSnapshot } from '../../../shared/storage/search/searchIndexStore.ts';
import { loadStoredIndex } from '../../../shared/storage/search/storedSearchIndex.ts';
import { chunksOf } from '../source/concurrency.ts';

/**
 * The search index of the target as the import leaves it. Bulk writes bypass the change log
 * that search instances follow (docs/data-model.md §8.7), so, as the seed tool does, the import
 * keeps the index itself: the target's snapshot and change log when the run starts, every bug
 * it writes folded in as it goes (compact columns, not the bugs), and one snapshot written when
 * the run ends, however it ends. Bugs a killed run wrote after its last snapshot are read back
 * from the table by the next run (`readBack`). The snapshot is announced in the change log, so
 * search instances already running (a deployed stack's, `npm start`'s) reload from it rather than
 * missing the imported bugs until they are recycled.
 */
export class ImportIndex {
  private constructor(private readonly index: SearchIndex) {}

  static async load(): Promise<ImportIndex> {
    const { index, parts } = await loadStoredIndex();
    // The import rewrites the whole snapshot: every part the target stores apart is read first.
    for (const part of index.missingParts) attachIndexPart(index, part, await parts[part]!());
    const loaded = new ImportIndex(index);
    await loaded.catchUp();
    return loaded;
  }

  /** Bugs written through the change log (users of the target, an update's own writes) since the mark. */
  private async catchUp(): Promise<void> {
    const index = this.index;
    const started = Date.now();
    const log = await readChangeLog(index.highWater === 0 ? 0 : index.highWater - LOG_OVERLAP_MS);
    for (const document of log.documents) index.apply(document);
    index.highWater = Math.max(index.highWater, log.newest, started - LOG_OVERLAP_MS);
  }

  add(
    bug: Bug,
    rev: number,
    history: readonly HistoryEntry[],
    comments: ReadonlyArray<{ rawText: string; isPrivate: boolean }>,
  ): void {
    const texts = (isPrivate: boolean) =>
      comments.filter((comment) => comment.isPrivate === isPrivate).map((comment) => comment.rawText);
    this.index.apply({
      bug,
      rev,
      history: [...history],
      words: commentWords(texts(false)),
      privateWords: commentWords(texts(true)),
      allWords: true,
    });
  }

  /** Folds in bugs already in the table (written by a run that ended before its snapshot). */
  async readBack(ids: readonly number[]): Promise<void> {
    for (const chunk of chunksOf(ids, 100)) {
      const stored = await loadBugs(chunk);
      await Promise.all(
        [...stored.values()].map(async ({ bug, rev }) => {
          const [comments, history] = await Promise.all([loadComments(bug.id), loadHistory(bug.id)]);
          this.add(bug, rev, history, comments);
        }),
      );
    }
  }

  get size(): number {
    return this.index.size;
  }

  async write(): Promise<void> {
    // What the change log gained during the run (the target may be in use) goes in too: entries
    // before the new mark are not replayed over this snapshot.
    await this.catchUp();
    await writeSnapshot(snapshotPartsOf(this.index), { announce: true });
  }
}
