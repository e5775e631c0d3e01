import { slotsWhereTrue } from '../index/leafTables.ts';
import type { SearchNode } from '../query/searchQuery.ts';
import { compileLeaf } from './criterionCompiler.ts';
import { type LeafKernel, leafKernel, lookUpSlots } from './criterionKernels.ts';
import { ScratchArrays } from './scratchArrays.ts';
import { FALSE, MAYBE, type RowTest, type SearchEnvironment, TRUE } from './searchEnvironment.ts';

/**
 * Evaluates a search tree over a list of index slots one criterion at a time, with the same
 * three-valued logic as compileSearch (TRUE, FALSE, MAYBE for comment text the index lacks). An
 * AND hands each criterion only the slots that every earlier one left possible, an OR only those
 * not yet true, so a selective first criterion (open bugs, a product) spares the costly ones
 * after it; and each criterion runs as one tight loop rather than a chain of calls per bug.
 */

/**
 * From this many slots on, a criterion (or group) whose every part leafKernel can compute is looked
 * up in its result over the whole index, kept between searches and brought up to date with the
 * index's journal (leafTables.ts); fewer slots are cheaper to test one by one.
 */
const KEEP_MIN_SLOTS = 2_048;

/** Truths and slot lists of the evaluations in progress, by level: reused by every search. */
const scratch = new ScratchArrays();
/** How many evaluations are in progress: the level a new one takes. */
let depth = 0;

/**
 * The truth of `node` for each slot of `slots`, in the same order. The array is scratch memory
 * (scratchArrays.ts): read it before evaluating anything else.
 */
export function evaluateSearch(env: SearchEnvironment, node: SearchNode, slots: Int32Array): Uint8Array {
  const level = depth++;
  try {
    return evaluateAt(env, node, slots, level);
  } finally {
    depth--;
  }
}

function evaluateAt(env: SearchEnvironment, node: SearchNode, slots: Int32Array, level: number): Uint8Array {
  // Parameters parse into groups of one (`summary=x` is an OR of one criterion inside the top AND).
  if (node.kind !== 'const' && node.kind !== 'leaf' && node.children.length === 1 && !node.negate)
    return evaluateAt(env, node.children[0]!, slots, level);
  if (slots.length >= KEEP_MIN_SLOTS && keepable(env, node)) {
    const kept = keptResult(env, node);
    if (!env.index.leafTables.worthKeeping(kept[0], env)) return evaluateFresh(env, node, slots, level);
    const table = env.index.leafTables.table(env.index, ...kept);
    const truths = scratch.truths(level, slots.length);
    lookUpSlots(table, slots, truths);
    return truths;
  }
  return evaluateFresh(env, node, slots, level);
}

/**
 * The slots of the whole index for which `node` is TRUE, ascending, when its result can be kept
 * (then nothing in it is MAYBE): a search over every bug that finds few reads just those. Null otherwise.
 */
export function keptMatches(env: SearchEnvironment, node: SearchNode): Int32Array | null {
  if (env.index.size < KEEP_MIN_SLOTS || !keepable(env, node)) return null;
  const kept = keptResult(env, node);
  if (!env.index.leafTables.worthKeeping(kept[0], env)) return null;
  return env.index.leafTables.trueSlots(env.index, ...kept);
}

/** The slots of the whole index for which `node` is TRUE, ascending: the kept list, or computed now. */
export function slotsMatching(env: SearchEnvironment, node: SearchNode): Int32Array {
  return keptMatches(env, node) ?? slotsWhereTrue(evaluateSearch(env, node, env.index.allSlots()));
}

/** Everything a kept result depends on besides the index: the criteria, whether private comment words count, and the catalogue. */
const keptResult = (env: SearchEnvironment, node: SearchNode) =>
  [
    `${env.insider ? 1 : 0}${JSON.stringify(node)}`,
    [env.products, env.keywords, env.groups, env.classifications, env.values],
    (some: Int32Array, truths: Uint8Array) => {
      // Called from inside an evaluation (a table filled as searches reach it): a level of its own.
      const level = depth++;
      try {
        truths.set(evaluateFresh(env, node, some, level));
      } finally {
        depth--;
      }
    },
  ] as const;

/**
 * Whether a criterion, or every criterion of a group, depends only on the index and the catalogue
 * (leafKernel has a kernel for it), so its result over the whole index can be kept.
 */
function keepable(env: SearchEnvironment, node: SearchNode): boolean {
  if (node.kind === 'const' || !env.index.leafTables.enabled) return false;
  if (node.kind === 'leaf') return kernelOf(env, node) !== null;
  return node.children.length > 0 && node.children.every((child) => keepable(env, child));
}

function evaluateFresh(env: SearchEnvironment, node: SearchNode, slots: Int32Array, level: number): Uint8Array {
  const truths = scratch.truths(level, slots.length);
  if (node.kind === 'const') truths.fill(node.value ? TRUE : FALSE);
  else if (node.kind === 'leaf') evaluateLeaf(env, node, slots, truths);
  else if (node.children.length === 0) truths.fill(TRUE);
  else if (node.kind === 'and') {
    // FALSE wins, then MAYBE.
    truths.fill(TRUE);
    combine(env, node.children, slots, truths, FALSE, level);
  } else {
    // TRUE wins, then MAYBE.
    truths.fill(FALSE);
    combine(env, node.children, slots, truths, TRUE, level);
  }
  if (node.kind !== 'const' && node.negate) {
    for (let i = 0; i < truths.length; i++) truths[i] = truths[i] === TRUE ? FALSE : truths[i] === FALSE ? TRUE : MAYBE;
  }
  return truths;
}

type Leaf = Extract<SearchNode, { kind: 'leaf' }>;

/**
 * Each criterion's kernel and row test, made once per search and index version: a search tested a
 * chunk at a time (firstMatches.ts) would otherwise make them again per chunk, and some build a
 * table over the whole index when made (comment words, summary trigrams). A change to the index
 * drops them, as those tables would no longer hold.
 */
interface CompiledLeaves {
  version: number;
  size: number;
  leaves: Map<Leaf, { kernel?: LeafKernel | null; test?: RowTest }>;
}
const compiledLeaves = new WeakMap<SearchEnvironment, CompiledLeaves>();

function compiledLeaf(env: SearchEnvironment, node: Leaf): { kernel?: LeafKernel | null; test?: RowTest } {
  const { version, size } = env.index;
  let compiled = compiledLeaves.get(env);
  if (!compiled || compiled.version !== version || compiled.size !== size) {
    compiled = { version, size, leaves: new Map() };
    compiledLeaves.set(env, compiled);
  }
  let leaf = compiled.leaves.get(node);
  if (!leaf) {
    leaf = {};
    compiled.leaves.set(node, leaf);
  }
  return leaf;
}

/** The criterion's kernel (null: it has none), made once per search. */
function kernelOf(env: SearchEnvironment, node: Leaf): LeafKernel | null {
  const compiled = compiledLeaf(env, node);
  if (compiled.kernel === undefined) compiled.kernel = leafKernel(env, node.field, node.op, node.value);
  return compiled.kernel;
}

function evaluateLeaf(env: SearchEnvironment, node: Leaf, slots: Int32Array, truths: Uint8Array): void {
  const compiled = compiledLeaf(env, node);
  // Many slots (a whole-index pass, or a large chunk) run the criterion's kernel: one tight loop.
  if (slots.length >= KEEP_MIN_SLOTS) {
    const kernel = kernelOf(env, node);
    if (kernel) {
      kernel(slots, truths);
      return;
    }
  }
  compiled.test ??= compileLeaf(env, node.field, node.op, node.value);
  const test = compiled.test;
  for (let i = 0; i < slots.length; i++) truths[i] = test(slots[i]!);
}

/**
 * Runs the children in turn. A slot that reaches `decisive` (FALSE for AND, TRUE for OR) is
 * decided; once a quarter of the slots still in play are, the rest are copied into a shorter list
 * for the following children. Compacting after every child would cost more than it saves when a
 * criterion decides few slots (most words of a quicksearch).
 */
function combine(
  env: SearchEnvironment,
  children: readonly SearchNode[],
  slots: Int32Array,
  truths: Uint8Array,
  decisive: number,
  level: number,
): void {
  let live = slots;
  let positions: Int32Array | null = null;
  let decided = 0;
  for (let child = 0; child < children.length; child++) {
    if (live.length === 0) return;
    const result = evaluateSearch(env, children[child]!, live);
    decided += positions ? merge(result, positions, truths, decisive) : mergeInPlace(result, truths, decisive);
    if (child === children.length - 1 || decided * 4 < live.length) continue;
    // The shorter lists are this level's scratch: after the first time, compacted into themselves.
    const nextLive = scratch.slots(level, 0, live.length - decided);
    const nextPositions = scratch.slots(level, 1, live.length - decided);
    let kept = 0;
    for (let i = 0; i < live.length; i++) {
      const position = positions ? positions[i]! : i;
      if (truths[position] === decisive) continue;
      nextLive[kept] = live[i]!;
      nextPositions[kept++] = position;
    }
    live = nextLive;
    positions = nextPositions;
    decided = 0;
  }
}

/*
 * Folds a child's truths into its parent's. The answer that changes nothing (TRUE in an AND, FALSE
 * in an OR: most of them) is skipped first. Two loops, with and without a position list, keep each
 * one simple for the optimiser. They return how many slots became decided.
 */
function merge(result: Uint8Array, positions: Int32Array, truths: Uint8Array, decisive: number): number {
  const idle = decisive === TRUE ? FALSE : TRUE;
  let decided = 0;
  for (let i = 0; i < result.length; i++) {
    const value = result[i];
    if (value === idle) continue;
    const position = positions[i]!;
    if (truths[position] === decisive) continue;
    if (value === decisive) decided++;
    truths[position] = value!;
  }
  return decided;
}

function mergeInPlace(result: Uint8Array, truths: Uint8Array, decisive: number): number {
  const idle = decisive === TRUE ? FALSE : TRUE;
  let decided = 0;
  for (let i = 0; i < result.length; i++) {
    const value = result[i];
    if (value === idle || truths[i] === decisive) continue;
    if (value === decisive) decided++;
    truths[i] = value!;
  }
  return decided;
}
