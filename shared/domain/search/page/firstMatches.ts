/**
 * A page of a search in bug id order (the order Bugzilla's REST search gives when none is asked)
 * found without deciding every candidate: the candidates are tested a chunk at a time, in slot
 * order, until the page is full and no slot left untested can hold a smaller bug id. A two-word
 * quicksearch for 50 bugs tests the first few thousand bugs of a million instead of all of them,
 * so its cost follows the page, not the installation.
 */

import { FALSE, MAYBE, type SearchEnvironment, TRUE } from '../evaluation/searchEnvironment.ts';
import { evaluateSearch } from '../evaluation/searchEvaluation.ts';
import { countSet, setSlots } from '../index/columnBitmaps.ts';
import type { SearchIndex } from '../index/searchIndex.ts';
import type { SearchNode } from '../query/searchQuery.ts';

/** The first chunk's size, doubled for each further one: a few criteria per chunk cost little next to its loops. */
const FIRST_CHUNK = 16_384;

export type VisibleTest = (slot: number) => boolean;

/**
 * How many candidates found TRUE the caller may see, or null when some are MAYBE (their comments
 * decide: visibleMatches and a second pass). count_only over half a million candidates. TRUE is 1,
 * MAYBE 2 and `restricted` 0 or 1, so the common case (an unrestricted match) is counted, and a
 * MAYBE noted, without a branch, which the processor would mispredict on every other slot.
 */
export function countVisible(
  truths: Uint8Array,
  candidates: Int32Array,
  restricted: Uint8Array,
  visible: VisibleTest,
): number | null {
  let count = 0;
  let seen = 0;
  for (let position = 0; position < candidates.length; position++) {
    const slot = candidates[position]!;
    const truth = truths[position]!;
    const guarded = restricted[slot]!;
    seen |= truth;
    count += truth & ~guarded & TRUE;
    if ((truth & guarded & TRUE) !== 0 && visible(slot)) count++;
  }
  return (seen & MAYBE) === 0 ? count : null;
}

/**
 * How many slots of `bits` the caller may see: those of unrestricted bugs by population count, and
 * each restricted one by `visible`.
 */
export function countVisibleBits(index: SearchIndex, bits: Uint32Array, visible: VisibleTest): number {
  const restricted = index.bitmapsOf('restricted', index.restricted)?.of(1);
  if (!restricted) return setSlots(bits).filter(visible).length;
  let count = countSet(bits, restricted);
  for (const slot of setSlots(bits, restricted)) if (visible(slot)) count++;
  return count;
}

/**
 * The candidates found TRUE or MAYBE that the caller may see. The matches are a typed array: a
 * search over a large product finds hundreds of thousands, and a growing plain array of them
 * cost more than the search itself.
 */
export function visibleMatches(
  truths: Uint8Array,
  candidates: Int32Array,
  restricted: Uint8Array,
  visible: VisibleTest,
): { matches: Int32Array; undecided: number[] } {
  let found = 0;
  for (let position = 0; position < candidates.length; position++) if (truths[position] === TRUE) found++;
  const matches = new Int32Array(found);
  let at = 0;
  const undecided: number[] = [];
  for (let position = 0; position < candidates.length; position++) {
    const truth = truths[position];
    if (truth === FALSE) continue;
    const slot = candidates[position]!;
    // Most bugs are in no group, and so visible to all: only the others go through the full rule.
    if (restricted[slot] === 1 && !visible(slot)) continue;
    if (truth === TRUE) matches[at++] = slot;
    else undecided.push(slot);
  }
  return { matches: matches.subarray(0, at), undecided };
}

/** Slots by bug id. Slots are mostly taken in id order already, so the sort is skipped when it has nothing to do. */
export function inIdOrder(index: SearchIndex, slots: Int32Array): Int32Array {
  for (let i = 1; i < slots.length; i++) {
    if (index.id[slots[i - 1]!]! > index.id[slots[i]!]!) return slots.sort((a, b) => index.id[a] - index.id[b]);
  }
  return slots;
}

/**
 * The first `wanted` visible matches of `node` among `candidates` by bug id (all of them when there
 * are fewer). Null when a chunk leaves bugs undecided because their comment text must be read: the
 * caller then searches every candidate as before. `firstChunk` is for tests of small indexes.
 */
export function firstMatchesById(
  env: SearchEnvironment,
  node: SearchNode,
  candidates: Int32Array,
  wanted: number,
  visible: VisibleTest,
  firstChunk = FIRST_CHUNK,
): Int32Array | null {
  const { index } = env;
  // Stopping early relies on the untested candidates all lying at or after the next one's slot.
  const ascending = candidates === index.allSlots() || isAscending(candidates);
  const ordered = ascending ? candidates : Int32Array.from(candidates).sort();
  let found: Int32Array = new Int32Array(0);
  let start = 0;
  for (let size = firstChunk; start < ordered.length; size *= 2) {
    const chunk = ordered.subarray(start, start + size);
    const { matches, undecided } = visibleMatches(evaluateSearch(env, node, chunk), chunk, index.restricted, visible);
    if (undecided.length > 0) return null;
    found = concatenated(found, matches);
    start += chunk.length;
    if (start < ordered.length) {
      const page = completePage(index, found, wanted, ordered[start]!);
      if (page) return page;
    }
  }
  return inIdOrder(index, found).subarray(0, wanted);
}

/**
 * The first `wanted` slots of `bits` the caller may see, by bug id: the bitmap read a chunk of
 * words at a time, in slot order, until the page is full and no later slot can hold a smaller id.
 * A page of the largest product lists a few thousand of its half a million bugs.
 */
export function firstVisibleBitsById(
  index: SearchIndex,
  bits: Uint32Array,
  wanted: number,
  visible: VisibleTest,
  firstChunk = FIRST_CHUNK,
): Int32Array {
  let found: Int32Array = new Int32Array(0);
  for (let word = 0, size = firstChunk >> 5; word < bits.length; size *= 2) {
    const end = Math.min(bits.length, word + size);
    const slots = setSlots(bits, undefined, word, end);
    let kept = 0;
    for (const slot of slots) if (index.restricted[slot] !== 1 || visible(slot)) slots[kept++] = slot;
    found = concatenated(found, slots.subarray(0, kept));
    word = end;
    if (word << 5 < index.size) {
      const page = completePage(index, found, wanted, word << 5);
      if (page) return page;
    }
  }
  return inIdOrder(index, found).subarray(0, wanted);
}

/**
 * The first `wanted` of `found` by bug id, once they are known: `found` holds that many and no
 * slot from `next` on (none of them tested yet) holds a smaller id. Null while they are not.
 */
function completePage(index: SearchIndex, found: Int32Array, wanted: number, next: number): Int32Array | null {
  if (found.length < wanted) return null;
  const ordered = inIdOrder(index, found);
  return index.id[ordered[wanted - 1]!]! < index.smallestIdFrom(next) ? ordered.subarray(0, wanted) : null;
}

function isAscending(slots: Int32Array): boolean {
  for (let i = 1; i < slots.length; i++) if (slots[i - 1]! > slots[i]!) return false;
  return true;
}

function concatenated(first: Int32Array, second: Int32Array): Int32Array {
  if (first.length === 0) return second;
  const joined = new Int32Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}
