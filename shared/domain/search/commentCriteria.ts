/**
 * Criteria over comment text, which the index does not hold: whole words are answered from its
 * inverted word lists; anything else is MAYBE in the first pass and decided from the comments read.
 */
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
import { PER_COMMENT_NEGATIONS } from './searchFields.ts';
import { commentWords } from './searchIndex.ts';
import { textMatcher, wordsOf } from './valueMatchers.ts';

/** Whether the criterion is whole words of comments, which the index's word lists decide without reading any. */
export const isCommentWordCriterion = (field: string, op: string): boolean =>
  (field === 'content' || field === 'longdesc') && (op === 'anywords' || op === 'allwords' || op === 'matches');

/** Whole words of comments, from the index's inverted word lists: no comment is read. */
function commentWordTest(env: SearchEnvironment, op: string, value: string): RowTest {
  const table = commentWordTable(env, op, value);
  return (slot) => table[slot] as Truth;
}

/** TRUE or FALSE for every slot: whether its comments hold any (anywords) or all (allwords, matches) of the words. */
export function commentWordTable(env: SearchEnvironment, op: string, value: string): Uint8Array {
  const { index } = env;
  // The words as the index holds them, each once.
  const unique = commentWords([value]);
  if (unique.length === 0) return new Uint8Array(index.size).fill(op === 'allwords' ? TRUE : FALSE);
  if (unique.length === 1) {
    // One word (most quicksearch words): its postings are the answer, nothing to count.
    const table = new Uint8Array(index.size);
    const visit = (slot: number) => {
      table[slot] = TRUE;
    };
    index.words.forEach(unique[0]!, visit);
    if (env.insider) index.privateWords.forEach(unique[0]!, visit);
    return table;
  }
  // Per slot: how many of the words its comments hold. Common words have tens of thousands of
  // postings, so this counts in typed arrays rather than building sets and maps of bug ids.
  const counts = new Uint16Array(index.size);
  const lastWord = new Uint16Array(index.size);
  unique.forEach((word, position) => {
    const mark = position + 1;
    // A bug with the word in a public and a private comment (or posted twice) counts it once.
    const visit = (slot: number) => {
      if (lastWord[slot] !== mark) {
        lastWord[slot] = mark;
        counts[slot]++;
      }
    };
    index.words.forEach(word, visit);
    if (env.insider) index.privateWords.forEach(word, visit);
  });
  const needed = op === 'allwords' || op === 'matches' ? unique.length : 1;
  const table = new Uint8Array(index.size);
  for (let slot = 0; slot < table.length; slot++) if (counts[slot]! >= needed) table[slot] = TRUE;
  return table;
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
  if (field === 'longdesc' && op === 'allwordssubstr') {
    // Every word in some comment, each maybe in another, as allwords finds whole words.
    const words = wordsOf(value);
    return (slot) => {
      const texts = readable(slot).map((comment) => comment.text.toLowerCase());
      return bool(words.every((word) => texts.some((text) => text.includes(word))));
    };
  }
  const text = textMatcher(op === 'matches' ? 'allwords' : op, value);
  if (field === 'description')
    return (slot) => bool(readable(slot).some((comment) => comment.count === 0 && text(comment.text)));
  return (slot) => bool(readable(slot).some((comment) => text(comment.text)));
}
