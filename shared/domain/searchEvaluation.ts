import { canonicalField, compileLeaf, FALSE, MAYBE, TRUE, type SearchEnvironment } from './searchPlanner.ts';
import type { SearchNode } from './searchQuery.ts';

/**
 * Evaluates a search tree over a list of index slots one criterion at a time, with the same
 * three-valued logic as compileSearch (TRUE, FALSE, MAYBE for comment text the index lacks). An
 * AND hands each criterion only the slots that every earlier one left possible, an OR only those
 * not yet true, so a selective first criterion (open bugs, a product) spares the costly ones
 * after it; and each criterion runs as one tight loop rather than a chain of calls per bug.
 */

/** Below this many slots a summary substring is cheaper to test bug by bug than through trigrams. */
const TRIGRAM_MIN_SLOTS = 2_048;

/** The truth of `node` for each slot of `slots`, in the same order. */
export function evaluateSearch(env: SearchEnvironment, node: SearchNode, slots: Int32Array): Uint8Array {
  // Parameters parse into groups of one (`summary=x` is an OR of one criterion inside the top AND).
  if (node.kind !== 'const' && node.kind !== 'leaf' && node.children.length === 1 && !node.negate) return evaluateSearch(env, node.children[0]!, slots);
  const truths = new Uint8Array(slots.length);
  if (node.kind === 'const') truths.fill(node.value ? TRUE : FALSE);
  else if (node.kind === 'leaf') evaluateLeaf(env, node, slots, truths);
  else if (node.children.length === 0) truths.fill(TRUE);
  else if (node.kind === 'and') evaluateAnd(env, node.children, slots, truths);
  else evaluateOr(env, node.children, slots, truths);
  if (node.kind !== 'const' && node.negate) {
    for (let i = 0; i < truths.length; i++) truths[i] = truths[i] === TRUE ? FALSE : truths[i] === FALSE ? TRUE : MAYBE;
  }
  return truths;
}

function evaluateLeaf(env: SearchEnvironment, node: Extract<SearchNode, { kind: 'leaf' }>, slots: Int32Array, truths: Uint8Array): void {
  const { index } = env;
  if (slots.length >= TRIGRAM_MIN_SLOTS && node.op === 'substring' && canonicalField(node.field) === 'short_desc') {
    const found = index.summaryTrigrams().matching(node.value.toLowerCase(), index.size);
    if (found) {
      // 1 and 0 are TRUE and FALSE.
      for (let i = 0; i < slots.length; i++) truths[i] = found[slots[i]!]!;
      return;
    }
  }
  const test = compileLeaf(env, node.field, node.op, node.value);
  for (let i = 0; i < slots.length; i++) truths[i] = test(slots[i]!);
}

/** FALSE wins, then MAYBE; slots found false leave the later criteria's lists. */
function evaluateAnd(env: SearchEnvironment, children: readonly SearchNode[], slots: Int32Array, truths: Uint8Array): void {
  truths.fill(TRUE);
  let live = slots;
  let positions: Int32Array | null = null;
  for (let child = 0; child < children.length; child++) {
    if (live.length === 0) return;
    const result = evaluateSearch(env, children[child]!, live);
    const last = child === children.length - 1;
    const nextLive = last ? live : new Int32Array(live.length);
    const nextPositions = last ? live : new Int32Array(live.length);
    let kept = 0;
    for (let i = 0; i < live.length; i++) {
      const position = positions ? positions[i]! : i;
      const value = result[i];
      if (value === FALSE) {
        truths[position] = FALSE;
        continue;
      }
      if (value === MAYBE) truths[position] = MAYBE;
      if (last) continue;
      nextLive[kept] = live[i]!;
      nextPositions[kept++] = position;
    }
    live = nextLive.subarray(0, kept);
    positions = nextPositions.subarray(0, kept);
  }
}

/** TRUE wins, then MAYBE; slots found true leave the later criteria's lists. */
function evaluateOr(env: SearchEnvironment, children: readonly SearchNode[], slots: Int32Array, truths: Uint8Array): void {
  truths.fill(FALSE);
  let live = slots;
  let positions: Int32Array | null = null;
  for (let child = 0; child < children.length; child++) {
    if (live.length === 0) return;
    const result = evaluateSearch(env, children[child]!, live);
    const last = child === children.length - 1;
    const nextLive = last ? live : new Int32Array(live.length);
    const nextPositions = last ? live : new Int32Array(live.length);
    let kept = 0;
    for (let i = 0; i < live.length; i++) {
      const position = positions ? positions[i]! : i;
      const value = result[i];
      if (value === TRUE) {
        truths[position] = TRUE;
        continue;
      }
      if (value === MAYBE) truths[position] = MAYBE;
      if (last) continue;
      nextLive[kept] = live[i]!;
      nextPositions[kept++] = position;
    }
    live = nextLive.subarray(0, kept);
    positions = nextPositions.subarray(0, kept);
  }
}
