/**
 * What a search needs decided before its rows are tested: whether its fields exist, which users'
 * logins to look up, and which slots are worth testing at all (the bugs of the products it requires).
 */
import { errors } from '../../../errors.ts';
import { isTimeTrackingField } from '../../bug/privateActivity.ts';
import { andInto, countSet, setSlots } from '../index/columnBitmaps.ts';
import { canonicalField, isSearchableField, USER_FIELDS } from '../query/searchFields.ts';
import type { SearchNode } from '../query/searchQuery.ts';
import { bitmapOf } from './bitmapEvaluation.ts';
import { idSetTest } from './criterionNames.ts';
import type { SearchEnvironment } from './searchEnvironment.ts';

/**
 * Checks every field and operator of a tree before anything is read (108, 68000). Outside the
 * time-tracking group its fields are no search fields, as Bugzilla removes them from its charts:
 * criteria on them, and on their changes (`chfield`), are 108 like any unknown field.
 */
export function validateSearch(node: SearchNode, viewer: { timeTracker?: boolean } = {}): void {
  if (node.kind === 'const') return;
  if (node.kind === 'leaf') {
    if (!isSearchableField(node.field)) throw errors.unusableSearchField(node.field);
    if (!viewer.timeTracker && isTimeTrackingField(canonicalField(node.field)))
      throw errors.unusableSearchField(node.field);
    return;
  }
  for (const child of node.children) validateSearch(child, viewer);
}

/** Users named by the tree's user criteria: exact logins, and whether any needs the full list. */
export function userNeeds(
  node: SearchNode,
  out: { logins: Set<string>; all: boolean } = { logins: new Set(), all: false },
) {
  if (node.kind === 'const') return out;
  if (node.kind === 'leaf') {
    const field = canonicalField(node.field);
    const isUser = USER_FIELDS.has(field) || node.op === 'changedby';
    if (!isUser) return out;
    if (node.op === 'isempty' || node.op === 'isnotempty') return out;
    const value = node.value.trim();
    if (value === '%user%') return out;
    if (node.op === 'equals' || node.op === 'changedby') out.logins.add(value.toLowerCase());
    else if (node.op === 'anyexact') for (const part of value.split(',')) out.logins.add(part.trim().toLowerCase());
    else out.all = true;
    return out;
  }
  for (const child of node.children) userNeeds(child, out);
  return out;
}

/**
 * The slots worth testing, and what is left to test on them. The top level's criteria that column
 * bitmaps answer (product, component, status... bitmapEvaluation.ts) decide their part for every
 * slot at once: the candidates are the slots they leave, as `bits` too, and an empty `rest` means
 * every candidate matches (count_only then only counts). When those criteria leave too many slots
 * to be worth listing while others remain to test, a search whose top level requires certain
 * products (`product=`, the criterion dashboards and the CLI send most) tests those products'
 * bugs, held by the criterion by construction (the same names, the index's exact lists); every
 * other search tests every slot (null), a chunk at a time when it pages by bug id.
 */
export function candidateSlots(
  env: SearchEnvironment,
  node: SearchNode,
): { slots: Int32Array; rest: SearchNode; bits?: Uint32Array } | null {
  if (node.kind !== 'and' || node.negate) return null;
  const decided = decidedByBitmaps(env, node);
  if (decided) return decided;
  const isProductLeaf = (child: SearchNode): child is Extract<SearchNode, { kind: 'leaf' }> =>
    child.kind === 'leaf' &&
    !child.negate &&
    canonicalField(child.field) === 'product' &&
    (child.op === 'equals' || child.op === 'anyexact');
  for (const child of node.children) {
    const leaves = isProductLeaf(child)
      ? [child]
      : child.kind === 'or' && !child.negate && child.children.length > 0 && child.children.every(isProductLeaf)
        ? (child.children as Array<Extract<SearchNode, { kind: 'leaf' }>>)
        : null;
    if (!leaves) continue;
    const products = env.products.map((record) => ({ id: record.product.id, name: record.product.name }));
    const ids = new Set<number>();
    for (const leaf of leaves) {
      const test = idSetTest(products, leaf.op, leaf.value);
      for (const product of products) if (test(product.id)) ids.add(product.id);
    }
    return {
      slots: env.index.slotsOfProducts(ids),
      rest: { ...node, children: node.children.filter((other) => other !== child) },
    };
  }
  return null;
}

/** Listing more than this share of the index to test the rest of a tree on costs more than it saves. */
const MAX_LISTED_SHARE = 0.25;

function decidedByBitmaps(
  env: SearchEnvironment,
  node: Extract<SearchNode, { children: SearchNode[] }>,
): { slots: Int32Array; rest: SearchNode; bits: Uint32Array } | null {
  let bits: Uint32Array | null = null;
  const others: SearchNode[] = [];
  for (const child of node.children) {
    const answered = bitmapOf(env, child);
    if (!answered) others.push(child);
    else if (!bits) bits = answered;
    else andInto(bits, answered);
  }
  if (!bits) return null;
  if (others.length > 0 && countSet(bits) > env.index.size * MAX_LISTED_SHARE) return null;
  const found = bits;
  let slots: Int32Array | undefined;
  return {
    bits: found,
    rest: { ...node, children: others },
    // Listed when asked for: count_only of a fully decided tree never needs them.
    get slots() {
      slots ??= setSlots(found);
      return slots;
    },
  };
}
