import { canSeeBug } from '../../domain/bug/bugAccess.ts';
import type { FieldSelection } from '../../domain/fieldSelection.ts';
import type { Caller } from '../../domain/identity/caller.ts';
import { slotsMatching } from '../../domain/search/evaluation/searchEvaluation.ts';
import { visibilityTest } from '../../domain/search/evaluation/searchVisibility.ts';
import { and, leaf, valuesOf } from '../../domain/search/query/searchQuery.ts';
import { errors } from '../../errors.ts';
import { loadBugs } from '../../storage/bug/bugStore.ts';
import { loadBugCatalog } from '../bug/bugContext.ts';
import { requestSearch, searchEnvironment } from './bugSearch.ts';
import { searchWithParts } from './searchIndexHolder.ts';
import { callerGroupIds, renderSearchPage } from './searchPage.ts';

/**
 * possible_duplicates: summaries ranked by the words they share with the one given, rare words
 * weighing most, as Bugzilla's full-text ranking does. Apart from search because it ranks rather
 * than filters.
 */

/**
 * The `limit` eligible slots whose words weigh most, best first (the newest bug first among
 * equals). A word's weight is its inverse document frequency among the eligible summaries: a word
 * found in few says more than one found in many. Typed arrays and one pass each, with no object per
 * summary: common words put tens of thousands of summaries here.
 */
export function rankByWords(
  held: Uint32Array,
  candidates: readonly number[],
  wordCount: number,
  ids: Int32Array,
  total: number,
  limit: number,
): number[] {
  const slots = Int32Array.from(candidates);
  const count = slots.length;
  const frequency = new Float64Array(wordCount);
  for (let i = 0; i < count; i++) {
    const mask = held[slots[i]!]!;
    for (let w = 0; w < wordCount; w++) if (mask & (1 << w)) frequency[w]++;
  }
  const weight = frequency.map((found) => Math.log(1 + total / (1 + found)));
  const scores = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const mask = held[slots[i]!]!;
    let score = 0;
    for (let w = 0; w < wordCount; w++) if (mask & (1 << w)) score += weight[w]!;
    scores[i] = score;
  }
  if (limit * 8 >= count) {
    // A page of most of them (limit=0 asks for max_search_results): sort them all.
    const order = Array.from({ length: count }, (_, i) => i).sort(
      (a, b) => scores[b]! - scores[a]! || ids[slots[b]!]! - ids[slots[a]!]!,
    );
    return order.slice(0, limit).map((i) => slots[i]!);
  }
  // Otherwise the best `limit` by insertion into a short list, in one pass (ties: the newer bug first).
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    const score = scores[i]!;
    const id = ids[slots[i]!]!;
    let at = best.length;
    while (at > 0) {
      const other = best[at - 1]!;
      if (scores[other]! > score || (scores[other] === score && ids[slots[other]!]! > id)) break;
      at--;
    }
    if (at >= limit) continue;
    best.splice(at, 0, i);
    if (best.length > limit) best.pop();
  }
  return best.map((i) => slots[i]!);
}

/** Sets a word's bit for the slots that hold it, listing each slot the first time any word marks it. */
function markSlots(held: Uint32Array, touched: number[], slots: Int32Array, word: number): void {
  const bit = 1 << word;
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    if (held[slot] === 0) touched.push(slot);
    held[slot] |= bit;
  }
}

const STOP_WORDS = new Set([
  'the',
  'and',
  'for',
  'with',
  'when',
  'from',
  'that',
  'this',
  'not',
  'are',
  'was',
  'but',
  'has',
  'have',
  'into',
  'its',
  'after',
  'does',
  'can',
  'all',
  'any',
  'out',
  'off',
  'too',
  'why',
  'how',
  'what',
  'who',
]);

/** Words of a summary that carry meaning for duplicate ranking (three letters or more, no stop words). */
function summaryWords(summary: string): string[] {
  return [
    ...new Set(
      [...summary.toLowerCase().matchAll(/[\p{L}\p{N}_]{3,}/gu)]
        .map((match) => match[0])
        .filter((word) => !STOP_WORDS.has(word)),
    ),
  ];
}

/**
 * GET /rest/bug/possible_duplicates: the visible bugs whose summaries share the most words with
 * the given summary (or bug `id`'s), best first; among equals, the newest bug first. Like
 * Bugzilla's full-text ranking, a rare word counts for more than a common one.
 */
export async function possibleDuplicates(caller: Caller, params: Record<string, unknown>, fields: FieldSelection) {
  const bugCatalog = await loadBugCatalog();
  const parameters = bugCatalog.catalog.parameters;
  const maximum = Number(parameters.max_search_results) || 10_000;
  const rawLimit = valuesOf(params.limit)[0];
  const limitNumber = rawLimit === undefined || rawLimit === '' ? 0 : Number(rawLimit);
  if (!Number.isInteger(limitNumber) || limitNumber < 0) throw errors.notWholeNumber('limit');
  const limit = limitNumber === 0 || limitNumber > maximum ? maximum : limitNumber;
  const idValue = valuesOf(params.id)[0];
  let summary = valuesOf(params.summary)[0] ?? '';
  let excluded: number | undefined;
  if (idValue !== undefined && idValue !== '') {
    if (!/^\d+$/.test(idValue.trim())) throw errors.invalidBugNumber(idValue);
    const id = Number(idValue);
    const stored = (await loadBugs([id])).get(id);
    if (!stored) throw errors.bugNotFound(id);
    const groupName = (groupId: number) => bugCatalog.catalog.groups.find((group) => group.id === groupId)?.name;
    if (!canSeeBug(caller, stored.bug, groupName, parameters.or_groups === '1')) throw errors.bugAccessDenied(id);
    summary = stored.bug.summary;
    excluded = id;
  }
  if (summary.trim() === '' && excluded === undefined)
    throw errors.missingParameter('You must specify a summary or a bug id to find duplicates of.');
  const productNames = valuesOf(params.product);
  const productIds = new Set(
    bugCatalog.catalog.products
      .filter((record) => productNames.some((name) => name.toLowerCase() === record.product.name.toLowerCase()))
      .map((record) => record.product.id),
  );
  if (productNames.length > 0 && productIds.size === 0) return { bugs: [] };
  // One bit per word below: a summary of Bugzilla's 255 characters rarely has more meaningful words.
  const words = summaryWords(summary).slice(0, 32);
  if (words.length === 0) return { bugs: [] };
  const search = await requestSearch();
  const { index } = search;
  const visible = visibilityTest(
    index,
    caller.user?.id ?? 0,
    callerGroupIds(caller, bugCatalog),
    parameters.or_groups === '1',
  );
  // Which words each summary holds, one bit per word: each word is a summary substring criterion,
  // whose result over the whole index is kept between searches (common words recur in every summary).
  const env = await searchEnvironment(caller, bugCatalog, index, and([]));
  const page = await searchWithParts(search, () => {
    const held = new Uint32Array(index.size);
    const touched: number[] = [];
    words.forEach((word, w) => {
      markSlots(held, touched, slotsMatching(env, leaf('short_desc', 'substring', word)), w);
    });
    // Summaries of other products, of the bug itself, and of bugs the caller may not see are left out.
    const candidates = touched.filter(
      (slot) =>
        (productIds.size === 0 || productIds.has(index.productId[slot])) &&
        index.id[slot] !== excluded &&
        (index.restricted[slot] === 0 || visible(slot)),
    );
    return rankByWords(held, candidates, words.length, index.id, Math.max(1, index.size), limit).map(
      (slot) => index.id[slot],
    );
  });
  return { bugs: await renderSearchPage(caller, page, fields, search) };
}
