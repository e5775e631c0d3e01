import type { CommentRecord } from '../source/index.ts';
import type { Difference } from './differences.ts';
import { sameValue } from './normalise.ts';

/**
 * A bug's comments, matched by id (the importer keeps comment ids): position, author, time
 * (TIMES), text as shown, privacy, tags (SETS: Bugzilla returns them in no set order) and the
 * markdown flag. The readers already made 5.x's 0/1 booleans booleans and its `author`/`time`
 * the `creator`/`creation_time` of newer answers.
 */

type Compared = [field: string, value: (comment: CommentRecord) => unknown, same: (a: unknown, b: unknown) => boolean];

const strict = (a: unknown, b: unknown) => a === b;

/**
 * DUPE NOTICE: Bugzilla 5.0 and 5.2 show a duplicate notice written without a comment as
 * "\n\n*** This bug has been marked as a duplicate of bug N ***" (their template always puts the
 * blank line before the notice); Tracker shows the notice alone. Only that exact case is equal.
 */
const DUPE_NOTICE = /^\n\n(\*\*\* This bug has been marked as a duplicate of bug \d+ \*\*\*)$/;
const sameText = (a: unknown, b: unknown) =>
  a === b || (typeof a === 'string' && typeof b === 'string' && DUPE_NOTICE.exec(a)?.[1] === b);
const FIELDS: Compared[] = [
  ['count', (comment) => comment.count, strict],
  ['creator', (comment) => comment.creator, strict],
  ['creation_time', (comment) => comment.creationTime, sameValue],
  ['text', (comment) => comment.text, sameText],
  ['is_private', (comment) => comment.isPrivate, strict],
  ['is_markdown', (comment) => comment.isMarkdown, strict],
  ['tags', (comment) => comment.tags, sameValue],
  ['attachment_id', (comment) => comment.attachmentId, strict],
];

/** What names a comment that only one side has. */
const brief = (comment: CommentRecord) => ({
  count: comment.count,
  creator: comment.creator,
  creation_time: comment.creationTime,
});

export function compareComments(source: readonly CommentRecord[], target: readonly CommentRecord[]): Difference[] {
  const targetById = new Map(target.map((comment) => [comment.id, comment]));
  const sourceIds = new Set(source.map((comment) => comment.id));
  const differences: Difference[] = [];
  for (const comment of source) {
    const other = targetById.get(comment.id);
    if (!other) {
      differences.push({ kind: 'comment', id: comment.id, field: 'comment', source: brief(comment), target: null });
      continue;
    }
    for (const [field, value, same] of FIELDS)
      if (!same(value(comment), value(other)))
        differences.push({ kind: 'comment', id: comment.id, field, source: value(comment), target: value(other) });
  }
  for (const comment of target)
    if (!sourceIds.has(comment.id))
      differences.push({ kind: 'comment', id: comment.id, field: 'comment', source: null, target: brief(comment) });
  return differences;
}
