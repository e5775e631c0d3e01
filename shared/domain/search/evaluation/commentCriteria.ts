/**
 * Criteria over comment text, which the index does not hold: whole words are answered from its
 * inverted word lists; anything else is MAYBE in the first pass and decided from the comments read.
 */

import { commentWords } from '../index/columns.ts';
import type { PostingWalk } from '../index/postingLists.ts';
import { PER_COMMENT_NEGATIONS } from '../query/searchFields.ts';
import { userIdTest } from './criterionNames.ts';
import {
  always,
  bool,
  FALSE,
  MAYBE,
  type RowTest,
  type SearchEnvironment,
  TRUE,
  type Truth,
} from './searchEnvironment.ts';
import { textMatcher, wordsOf } from './valueMatchers.ts';

/** Whether the criterion is whole words of comments, which the index's word lists decide without reading any. */
export const isCommentWordCriterion = (field: string, op: string): boolean =>
  (field === 'content' || field === 'longdesc') && (op === 'anywords' || op === 'allwords' || op === 'matches');

/** Whole words of comments, from the index's inverted word lists: no comment is read. */
function commentWordTest(env: SearchEnvironment, op: string, value: string): RowTest {
  const words = new CommentWordTable(env, op, value);
  return (slot) => words.upTo(slot + 1)[slot] as Truth;
}

/**
 * TRUE or FALSE for every slot: whether its comments hold any (anywords) or all (allwords,
 * matches) of the words. Filled a range of slots at a time, as far as a search has reached
 * (`upTo`): a page of a million bugs that stops after the first few thousand reads only their
 * postings, however common the word.
 */
export class CommentWordTable {
  private readonly table: Uint8Array;
  /** Per word, the walks of its public (and, for insiders, private) postings. */
  private readonly walks: PostingWalk[][];
  /** Per slot: how many of the words its comments hold (more than one word only). */
  private readonly counts?: Uint16Array;
  private readonly lastWord?: Uint16Array;
  private readonly needed: number;
  private reached = 0;

  constructor(env: SearchEnvironment, op: string, value: string) {
    const { index } = env;
    // The words as the index holds them, each once.
    const unique = commentWords([value]);
    this.table = new Uint8Array(index.size);
    this.needed = op === 'allwords' || op === 'matches' ? unique.length : 1;
    this.walks = unique.map((word) =>
      env.insider ? [index.words.walk(word), index.privateWords.walk(word)] : [index.words.walk(word)],
    );
    if (unique.length === 0) {
      this.table.fill(op === 'allwords' ? TRUE : FALSE);
      this.reached = index.size;
    } else if (unique.length > 1) {
      // Common words have tens of thousands of postings: counted in typed arrays, not sets of ids.
      this.counts = new Uint16Array(index.size);
      this.lastWord = new Uint16Array(index.size);
    }
  }

  /** The table, right for every slot below `end` (and maybe more). */
  upTo(end: number): Uint8Array {
    const to = Math.min(end, this.table.length);
    if (to <= this.reached) return this.table;
    const { table, counts, lastWord } = this;
    if (!counts || !lastWord) {
      // One word: its postings are the answer, nothing to count.
      const mark = (slot: number) => {
        table[slot] = TRUE;
      };
      for (const walk of this.walks[0]!) walk.to(to, mark);
    } else {
      this.walks.forEach((walks, position) => {
        const word = position + 1;
        // A bug with the word in a public and a private comment (or posted twice) counts it once.
        const visit = (slot: number) => {
          if (lastWord[slot] !== word) {
            lastWord[slot] = word;
            counts[slot]++;
          }
        };
        for (const walk of walks) walk.to(to, visit);
      });
      for (let slot = this.reached; slot < to; slot++) if (counts[slot]! >= this.needed) table[slot] = TRUE;
    }
    this.reached = to;
    return table;
  }
}

/** A comment criterion's row test: MAYBE in the first pass, until the undecided rows' comments are read. */
export function commentTest(env: SearchEnvironment, field: string, op: string, value: string): RowTest {
  if (isCommentWordCriterion(field, op)) return commentWordTest(env, op, value);
  // No words to find: every bug has them all, and no comment needs reading to say so.
  if (field === 'longdesc' && op === 'allwordssubstr' && wordsOf(value).length === 0) return always(TRUE);
  if (!env.comments) return always(MAYBE);
  const comments = env.comments;
  const { index } = env;
  if (field === 'commenter') {
    const who = userIdTest(env, op, value);
    return (slot) => bool((comments.get(index.id[slot]) ?? []).some((comment) => who(comment.creatorId)));
  }
  const readable = (slot: number) => comments.get(index.id[slot]) ?? [];
  const negation = PER_COMMENT_NEGATIONS[op];
  if (field === 'longdesc' && negation) {
    // A comment that fails the positive operator (searchFields.ts).
    const positive = textMatcher(negation, value);
    return (slot) => bool(readable(slot).some((comment) => !positive(comment.text)));
  }
  const text = textMatcher(op === 'matches' ? 'allwords' : op, value);
  if (field === 'description')
    return (slot) => bool(readable(slot).some((comment) => comment.count === 0 && text(comment.text)));
  return (slot) => bool(readable(slot).some((comment) => text(comment.text)));
}
