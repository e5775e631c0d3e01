import { type BugBundle, SourceDataError } from '../source/index.ts';

/**
 * Ids a source gives twice (issue 41). Tracker keeps the source's ids, and they are global: a
 * comment, an attachment and a bug are addressed by id alone (`/rest/bug/comment/<id>`,
 * `/rest/bug/attachment/<id>`), so two items of one id would overwrite each other or answer as
 * each other (bug 1 listing bug 4's private attachment). Such a source is refused: the batch that
 * shows a collision is not written and the message names the ids. Ids already seen in this run
 * are kept in a bit set per 65,536 ids (a few MB for millions of comments).
 */
export class IdSet {
  private readonly chunks = new Map<number, Uint32Array>();

  has(id: number): boolean {
    const chunk = this.chunks.get(Math.floor(id / 65_536));
    const bit = id % 65_536;
    return chunk !== undefined && (chunk[bit >>> 5] & (1 << (bit & 31))) !== 0;
  }

  add(id: number): void {
    const index = Math.floor(id / 65_536);
    let chunk = this.chunks.get(index);
    if (!chunk) {
      chunk = new Uint32Array(2048);
      this.chunks.set(index, chunk);
    }
    const bit = id % 65_536;
    chunk[bit >>> 5] |= 1 << (bit & 31);
  }
}

export interface SeenIds {
  bugs: IdSet;
  comments: IdSet;
  attachments: IdSet;
}

export const seenIds = (): SeenIds => ({ bugs: new IdSet(), comments: new IdSet(), attachments: new IdSet() });

/** Throws a SourceDataError naming every id of `bundle` given twice (in it, or earlier in the run); else records them. */
export function checkBundleIds(bundle: Pick<BugBundle, 'bugs' | 'comments' | 'attachments'>, seen: SeenIds): void {
  const collisions: string[] = [];
  const check = (kind: 'bug' | 'comment' | 'attachment', set: IdSet, items: Array<{ id: number; bugId: number }>) => {
    const inBatch = new Map<number, number[]>();
    for (const item of items) inBatch.set(item.id, [...(inBatch.get(item.id) ?? []), item.bugId]);
    for (const [id, bugs] of inBatch) {
      const before = set.has(id);
      if (bugs.length === 1 && !before) continue;
      const where = kind === 'bug' ? '' : ` (on bug${bugs.length > 1 ? 's' : ''} ${[...new Set(bugs)].join(', ')})`;
      collisions.push(
        `${kind} ${id}${where} ${before ? 'was already given by an earlier answer' : `is given ${bugs.length} times`}`,
      );
    }
    return () => {
      for (const id of inBatch.keys()) set.add(id);
    };
  };
  const records = [
    check(
      'bug',
      seen.bugs,
      bundle.bugs.map((bug) => ({ id: bug.id, bugId: bug.id })),
    ),
    check(
      'comment',
      seen.comments,
      bundle.bugs.flatMap((bug) =>
        (bundle.comments.get(bug.id) ?? []).map((comment) => ({ id: comment.id, bugId: bug.id })),
      ),
    ),
    check(
      'attachment',
      seen.attachments,
      bundle.bugs.flatMap((bug) =>
        (bundle.attachments.get(bug.id) ?? []).map((attachment) => ({ id: attachment.id, bugId: bug.id })),
      ),
    ),
  ];
  if (collisions.length > 0) {
    const shown = collisions.slice(0, 10).join('; ');
    const more = collisions.length > 10 ? `; and ${collisions.length - 10} more` : '';
    throw new SourceDataError(
      `The source gives one id to several items, which Tracker cannot keep apart (each is addressed by its id alone): ${shown}${more}. Nothing of this batch was written; the source must be repaired before it can be imported.`,
    );
  }
  for (const record of records) record();
}
