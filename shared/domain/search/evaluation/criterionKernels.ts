/**
 * Criteria decided by a table lookup per slot, as tight loops over typed arrays: how a criterion
 * is computed over the whole index (a result kept between searches, leafTables.ts) at a few ms per
 * 100,000 bugs. Each gives exactly the answer of its row test (criterionCompiler.ts).
 */

import type { IdLists } from '../index/idLists.ts';
import { containsNeedle, type TrigramCandidates } from '../index/trigramIndex.ts';
import { COMMENT_FIELDS, canonicalField, KEYWORD_TEXT_OPERATORS } from '../query/searchFields.ts';
import { type ColumnCriterion, columnCriterion } from './columnCriteria.ts';
import { CommentWordTable, isCommentWordCriterion } from './commentCriteria.ts';
import { idSetTest, idTable } from './criterionNames.ts';
import { FALSE, type SearchEnvironment, TRUE } from './searchEnvironment.ts';
import { textMatcher, wordsOf } from './valueMatchers.ts';

/** Fills the truths of one criterion for a list of slots (searchEvaluation.ts); `truths` starts all FALSE. */
export type LeafKernel = (slots: Int32Array, truths: Uint8Array) => void;

/**
 * The word operators over a bug's joined keywords, decided per keyword instead: a word has no
 * comma or space, so it is found in "a, b" exactly when it is found in a or in b. Each keyword gets
 * a bit per word it holds; a bug holds the words of its keywords' bits. Null past 32 words.
 */
function keywordWordKernel(env: SearchEnvironment, op: string, value: string): LeafKernel | null {
  if (op === 'regexp') return null;
  const words = wordsOf(value);
  if (words.length > 32) return null;
  const fixed = textMatcher(op, value)('') ? TRUE : FALSE;
  if (words.length === 0) return (slots, truths) => truths.fill(fixed, 0, slots.length);
  const single = op === 'anywords' || op === 'allwords' ? 'anywords' : 'anywordssubstr';
  const tests = words.map((word) => textMatcher(single, word));
  const masks = new Uint32Array(env.keywords.reduce((max, keyword) => Math.max(max, keyword.id), 0) + 1);
  for (const keyword of env.keywords)
    tests.forEach((test, w) => {
      if (test(keyword.name)) masks[keyword.id] |= 1 << w;
    });
  const full = words.length === 32 ? 0xffffffff : (1 << words.length) - 1;
  const any = op === 'anywords' || op === 'anywordssubstr';
  const lists = env.index.lists.keywordIds;
  return (slots, truths) => wordsHeld(lists, masks, full, any, slots, truths);
}

/** Nothing can match: every truth stays FALSE, and no slot is read. */
const NONE: LeafKernel = () => {};

/** A column criterion as a kernel; nothing is read when no value can match. */
function columnLookup(criterion: ColumnCriterion): LeafKernel {
  return (slots, truths) => {
    const table = criterion.table();
    if (table.includes(TRUE)) lookUp(criterion.column, table, slots, truths);
  };
}

/*
 * The loops of the kernels are plain module functions rather than closures made per search, so
 * each is one function for V8 to optimise, shared by every search.
 */
function lookUp(column: Int32Array, table: Uint8Array, slots: Int32Array, truths: Uint8Array): void {
  // Out-of-range reads give undefined, which a Uint8Array stores as 0: FALSE.
  for (let i = 0; i < slots.length; i++) truths[i] = table[column[slots[i]!]!]!;
}

/** The largest of `slots` (-1 for none): how far a table filled as searches reach must be right. */
function largestSlot(slots: Int32Array): number {
  let largest = -1;
  for (let i = 0; i < slots.length; i++) if (slots[i]! > largest) largest = slots[i]!;
  return largest;
}

export function lookUpSlots(table: Uint8Array, slots: Int32Array, truths: Uint8Array): void {
  for (let i = 0; i < slots.length; i++) truths[i] = table[slots[i]!]!;
}

function anyListedIn(lists: IdLists, table: Uint8Array, slots: Int32Array, truths: Uint8Array): void {
  for (let i = 0; i < slots.length; i++) if (lists.anyIn(slots[i]!, table, TRUE)) truths[i] = TRUE;
}

function wordsHeld(
  lists: IdLists,
  masks: Uint32Array,
  full: number,
  any: boolean,
  slots: Int32Array,
  truths: Uint8Array,
): void {
  for (let i = 0; i < slots.length; i++) {
    const held = lists.maskOf(slots[i]!, masks);
    truths[i] = (any ? held !== 0 : held >>> 0 === full >>> 0) ? TRUE : FALSE;
  }
}

/**
 * The criteria that a table lookup per slot decides, as tight loops over typed arrays: code
 * columns, product, component, classification, whiteboard and alias (through their distinct
 * values), keywords and groups. Null for every other criterion, which compileLeaf tests row by row.
 * Each gives exactly compileLeaf's answer; a criterion that no value can satisfy reads nothing.
 */
export function leafKernel(env: SearchEnvironment, rawField: string, op: string, value: string): LeafKernel | null {
  const field = canonicalField(rawField);
  const { index } = env;
  if (op.startsWith('changed')) return null;
  if (isCommentWordCriterion(field, op)) {
    let words: CommentWordTable | undefined;
    return (slots, truths) => {
      words ??= new CommentWordTable(env, op, value);
      return lookUpSlots(words.upTo(largestSlot(slots) + 1), slots, truths);
    };
  }
  if (COMMENT_FIELDS.has(field)) return null;
  const column = columnCriterion(env, field, op, value);
  if (column) return columnLookup(column);
  switch (field) {
    case 'short_desc': {
      if (op !== 'substring') return null;
      const needle = value.toLowerCase();
      let candidates: TrigramCandidates | null | undefined;
      return (slots, truths) => {
        // Made on first use (not when the kernel is), and kept for the search's further chunks.
        if (candidates === undefined) candidates = index.summaryTrigrams().candidates(needle, index.size);
        if (candidates) {
          const marks = candidates.upTo(largestSlot(slots) + 1);
          return containsNeedle(marks, index.summaryLower, needle, slots, truths);
        }
        for (let i = 0; i < slots.length; i++)
          truths[i] = index.summaryLower[slots[i]!]!.includes(needle) ? TRUE : FALSE;
      };
    }
    case 'keywords':
    case 'bug_group': {
      if (field === 'keywords' && KEYWORD_TEXT_OPERATORS.has(op)) {
        const byWord = keywordWordKernel(env, op, value);
        if (byWord) return byWord;
        // Matched against the keywords as one text; the many bugs without keywords all give the empty text's answer.
        const names = new Map(env.keywords.map((keyword) => [keyword.id, keyword.name]));
        const test = textMatcher(op, value);
        const none = test('') ? TRUE : FALSE;
        const lists = index.lists.keywordIds;
        return (slots, truths) => {
          for (let i = 0; i < slots.length; i++) {
            const ids = lists.get(slots[i]!);
            truths[i] = ids.length === 0 ? none : test(ids.map((id) => names.get(id) ?? '').join(', ')) ? TRUE : FALSE;
          }
        };
      }
      if (op === 'isempty' || op === 'isnotempty') return null;
      const named = field === 'keywords' ? env.keywords : env.groups;
      const test = idSetTest(named, op, value);
      const table = idTable(named.map((entry) => entry.id).filter(test));
      if (!table.includes(TRUE)) return NONE;
      const lists = field === 'keywords' ? index.lists.keywordIds : index.lists.groupIds;
      return (slots, truths) => anyListedIn(lists, table, slots, truths);
    }
    default:
      return null;
  }
}
