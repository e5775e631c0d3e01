/**
 * Evaluates the parts of a search tree that column bitmaps (columnBitmaps.ts) can answer: product,
 * component, status and the other columns of few values, combined with AND, OR and NOT, a word of
 * 32 bugs at a time. Such criteria are never MAYBE (they depend on nothing outside the index), so
 * plain bits hold their truth. Null for a tree with any other criterion.
 */
import { andInto, clearPast, filledBitmap, orInto, wordsFor } from '../index/columnBitmaps.ts';
import { canonicalField } from '../query/searchFields.ts';
import type { SearchNode } from '../query/searchQuery.ts';
import { columnCriterion } from './columnCriteria.ts';
import { type SearchEnvironment, TRUE } from './searchEnvironment.ts';

/** The slots for which `node` is TRUE, as a new bitmap of the index's size; null when bitmaps cannot answer it. */
export function bitmapOf(env: SearchEnvironment, node: SearchNode): Uint32Array | null {
  const size = env.index.size;
  if (node.kind === 'const') return filledBitmap(size, node.value);
  let result: Uint32Array | null;
  if (node.kind === 'leaf') result = leafBitmap(env, node);
  // Parameters parse into groups of one (`product=X` is an OR of one criterion): its own bitmap.
  else if (node.children.length === 1) result = bitmapOf(env, node.children[0]!);
  else {
    const combine = node.kind === 'and' ? andInto : orInto;
    // A group without criteria holds for every bug, an empty OR too (as evaluateSearch has it).
    result = filledBitmap(size, node.kind === 'and' || node.children.length === 0);
    for (const child of node.children) {
      const bits = bitmapOf(env, child);
      if (!bits) return null;
      combine(result, bits);
    }
  }
  if (result && node.negate) {
    for (let word = 0; word < result.length; word++) result[word] = ~result[word]!;
    clearPast(result, size);
  }
  return result;
}

function leafBitmap(env: SearchEnvironment, node: Extract<SearchNode, { kind: 'leaf' }>): Uint32Array | null {
  // Changes are history, not the column (historyCriteria.ts).
  if (node.op.startsWith('changed')) return null;
  const criterion = columnCriterion(env, canonicalField(node.field), node.op, node.value);
  if (!criterion) return null;
  const bitmaps = env.index.bitmapsOf(criterion.name, criterion.column);
  if (!bitmaps) return null;
  const table = criterion.table();
  const words = wordsFor(env.index.size);
  let result: Uint32Array | undefined;
  for (const value of bitmaps.values()) {
    // As the kernels' lookups: a value past the table is FALSE.
    if (table[value] !== TRUE) continue;
    const bits = bitmaps.of(value);
    if (!result) result = bits.slice(0, words);
    else orInto(result, bits);
  }
  return result ?? new Uint32Array(words);
}
