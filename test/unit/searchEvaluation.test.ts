import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';
import { bitmapOf } from '../../shared/domain/search/evaluation/bitmapEvaluation.ts';
import { compileSearch } from '../../shared/domain/search/evaluation/criterionCompiler.ts';
import { FALSE, MAYBE, type SearchEnvironment, TRUE } from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { evaluateSearch, keptMatches } from '../../shared/domain/search/evaluation/searchEvaluation.ts';
import { setSlots } from '../../shared/domain/search/index/columnBitmaps.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { TrigramIndex } from '../../shared/domain/search/index/trigramIndex.ts';
import {
  countVisible,
  firstMatchesById,
  firstVisibleBitsById,
  inIdOrder,
  visibleMatches,
} from '../../shared/domain/search/page/firstMatches.ts';
import type { SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import { indexFromSnapshot, snapshotOf } from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * The criterion-at-a-time evaluation (searchEvaluation.ts) must give exactly what the row-at-a-time
 * compiled test gives, MAYBE for comment text included: checked with fast-check on generated trees
 * over an index large enough for the trigram path and for kept results, before and after changes.
 */
const WORDS = ['crash', 'toolbar', 'wayland', 'flicker', 'menu', 'tab', 'print', 'ünïcode', 'save'];
const STATUSES = ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED'];

/** What a generated bug varies in; the rest follows from its id. */
interface Content {
  summary: string;
  status: string;
  priority: string;
}
const contentArbitrary: fc.Arbitrary<Content> = fc.record({
  summary: fc.array(fc.constantFrom(...WORDS), { minLength: 4, maxLength: 4 }).map((words) => words.join(' ')),
  status: fc.constantFrom(...STATUSES),
  priority: fc.constantFrom('High', 'Low', '---'),
});

const bug = (id: number, content: Content): Bug =>
  plainBug(id, {
    ...content,
    alias: id % 50 === 0 ? `alias-${id}` : null,
    productId: 1 + (id % 3),
    componentId: 10 + (id % 5),
    assigneeId: 1 + (id % 4),
    whiteboard: id % 7 === 0 ? 'triage' : id % 11 === 0 ? 'Needs-Info' : '',
    keywordIds: id % 4 === 0 ? [1] : id % 9 === 0 ? [2, 3] : [],
    groupIds: id % 13 === 0 ? [7] : [],
    commentCount: 1 + (id % 5),
  });

const BASE_BUGS = 3_000;
/** The same 3,000 bugs every run: a fixed sample, so a failure replays on the same index. */
const baseContents = fc.sample(contentArbitrary, { numRuns: BASE_BUGS, seed: 42 });
const baseIndex = new SearchIndex();
for (let id = 1; id <= BASE_BUGS; id++) {
  const words = id % 3 === 0 ? ['crash', 'toolbar'] : id % 5 === 0 ? ['menu'] : [];
  baseIndex.apply({ bug: bug(id, baseContents[id - 1]!), rev: 1, words });
}
const baseSnapshot = snapshotOf(baseIndex);
const products = [1, 2, 3].map((id) => ({
  product: { id, name: ['Browser', 'Mail', 'Toolbar Crash Reporter'][id - 1], classificationId: id === 3 ? 2 : 1 },
  components: [10, 11, 12, 13, 14]
    .filter((component) => component % 3 === id % 3 || id === 1)
    .map((component) => ({ id: component, name: `Part ${component}` })),
})) as unknown as SearchEnvironment['products'];
const env: SearchEnvironment = {
  index: baseIndex,
  callerId: 1,
  callerLogin: 'me@x.test',
  products,
  classifications: [
    { id: 1, name: 'Client' },
    { id: 2, name: 'Tools' },
  ] as unknown as SearchEnvironment['classifications'],
  values: DEFAULT_FIELD_VALUES,
  groups: [{ id: 7, name: 'secret' }] as unknown as SearchEnvironment['groups'],
  keywords: [
    { id: 1, name: 'crash' },
    { id: 2, name: 'regression' },
    { id: 3, name: 'perf' },
  ] as unknown as SearchEnvironment['keywords'],
  flagTypes: [],
  loginIds: new Map(),
  now: Date.parse('2025-06-01T00:00:00Z'),
  insider: false,
};

/** Negated one time in five, as criteria often are not; shrinks to not negated. */
const negate = fc.oneof({ arbitrary: fc.constant(false), weight: 4 }, { arbitrary: fc.constant(true), weight: 1 });
const leaf = (field: string, ops: readonly string[], values: fc.Arbitrary<string>): fc.Arbitrary<SearchNode> =>
  fc.record({
    kind: fc.constant('leaf' as const),
    field: fc.constant(field),
    op: fc.constantFrom(...ops),
    value: values,
    negate,
  });
const oneOf = (...values: string[]) => fc.constantFrom(...values);

const leafArbitrary: fc.Arbitrary<SearchNode> = fc.oneof(
  { arbitrary: leaf('short_desc', ['substring'], oneOf(...WORDS, 'ra', 'sh t', 'Wayland Flicker', 'zzz')), weight: 2 },
  leaf('content', ['matches', 'anywords', 'allwords'], oneOf('crash', 'crash menu', 'toolbar crash', 'nothing')),
  leaf('product', ['equals', 'substring', 'regexp', 'anyexact'], oneOf('Browser', 'crash', 'mail,browser', 'nothing')),
  leaf('component', ['equals', 'substring'], oneOf('Part 11', 'part 1', 'none')),
  leaf('classification', ['equals'], oneOf('Client', 'Tools', 'Other')),
  leaf(
    'keywords',
    [
      'equals',
      'anyexact',
      'substring',
      'anywords',
      'isempty',
      'allwords',
      'anywordssubstr',
      'allwordssubstr',
      'regexp',
    ],
    oneOf('crash', 'perf,regression', 'perf', 'reg', 'toolbar', 'reg crash', 'ash, perf', '', 'crash perf regression'),
  ),
  leaf('bug_group', ['equals', 'isnotempty'], oneOf('secret', 'other')),
  leaf('alias', ['substring', 'equals', 'isempty', 'regexp'], oneOf('alias-1', 'ALIAS', '50$', '')),
  leaf(
    'bug_status',
    ['anyexact'],
    fc.tuple(oneOf(...STATUSES), oneOf(...STATUSES)).map((pair) => pair.join(',')),
  ),
  leaf('priority', ['equals'], oneOf('High', 'Low')),
  leaf('longdescs.count', ['greaterthan'], fc.integer({ min: 0, max: 4 }).map(String)),
  // Comment text the index does not hold: MAYBE, which the evaluation must carry like the compiled test.
  leaf('longdesc', ['substring'], oneOf(...WORDS)),
  leaf(
    'status_whiteboard',
    ['substring', 'equals', 'isempty', 'casesubstring'],
    oneOf('tri', 'needs-info', 'Needs', ''),
  ),
);

/** Trees up to three groups deep; shrinks towards a single criterion. */
const treeArbitrary = (depth: number): fc.Arbitrary<SearchNode> =>
  depth === 0
    ? leafArbitrary
    : fc.oneof(
        { arbitrary: leafArbitrary, weight: 3 },
        {
          arbitrary: fc.record({
            kind: fc.constantFrom('and' as const, 'or' as const),
            children: fc.array(treeArbitrary(depth - 1), { maxLength: 3 }),
            negate,
          }),
          weight: 7,
        },
      );
const trees = treeArbitrary(3);

/** A changed bug (one of the first 3,000) or a new one, with new content and comment words. */
const changeArbitrary = fc.record({
  id: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: BASE_BUGS }), weight: 4 },
    { arbitrary: fc.constant(0), weight: 1 },
  ),
  content: contentArbitrary,
  words: fc.constantFrom<string[]>(['crash'], ['menu', 'toolbar']),
});

/**
 * The slots where the evaluation and the compiled test disagree (the kept list too): none, if all
 * is well. Each evaluation is a search of its own, as each request is: a result is kept from the
 * second search that asks for it (leafTables.ts), so the second round reads kept results.
 */
/** How many trees the bitmaps answered (the property tests check that some were). */
let bitmapTrees = 0;

function disagreements(shared: SearchEnvironment, tree: SearchNode, everyThirdLeftOut: boolean): string[] {
  const search = (): SearchEnvironment => ({ ...shared });
  const test = compileSearch(search(), tree);
  const all = shared.index.allSlots();
  const slots = everyThirdLeftOut ? all.filter((slot) => slot % 3 !== 0) : all;
  const wrong: string[] = [];
  for (const round of ['first', 'second']) {
    const truths = evaluateSearch(search(), tree, slots);
    wrong.push(
      ...[...slots.keys()]
        .filter((at) => truths[at] !== test(slots[at]!))
        .map((at) => `${round} search, slot ${slots[at]}: ${truths[at]} instead of ${test(slots[at]!)}`),
    );
  }
  const expected = () => Array.from(all).filter((slot) => test(slot) === TRUE);
  const kept = keptMatches(search(), tree);
  if (kept && kept.join() !== expected().join()) wrong.push(`kept ${kept.length} slots, ${expected().length} match`);
  // Trees of column criteria only: their bitmaps (columnBitmaps.ts) give the same slots.
  const bits = bitmapOf(search(), tree);
  if (bits) {
    bitmapTrees++;
    const found = Array.from(setSlots(bits));
    if (found.join() !== expected().join())
      wrong.push(`bitmaps found ${found.length} slots, ${expected().length} match`);
  }
  return wrong.slice(0, 5);
}

describe('criterion-at-a-time search evaluation', () => {
  it('agrees with the row-at-a-time test on every slot, for generated trees', () => {
    fc.assert(
      fc.property(trees, fc.boolean(), (tree, everyThirdLeftOut) => {
        expect(disagreements(env, tree, everyThirdLeftOut), JSON.stringify(tree)).toEqual([]);
      }),
      { numRuns: 100 },
    );
    expect(bitmapTrees).toBeGreaterThan(0);
  });

  it('keeps agreeing, kept results included, as bugs change and new ones arrive', () => {
    fc.assert(
      fc.property(
        fc.array(trees, { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(changeArbitrary, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 2 }),
        (searched, batches) => {
          const index = indexFromSnapshot(baseSnapshot);
          const changing = { ...env, index };
          const revisions = new Map<number, number>();
          let nextId = BASE_BUGS + 1;
          const searchAll = (moment: string) => {
            for (const tree of searched)
              expect(disagreements(changing, tree, false), `${moment}: ${JSON.stringify(tree)}`).toEqual([]);
          };
          searchAll('before any change');
          for (const [at, batch] of batches.entries()) {
            for (const change of batch) {
              const id = change.id || nextId++;
              const rev = (revisions.get(id) ?? 1) + 1;
              revisions.set(id, rev);
              index.apply({ bug: bug(id, change.content), rev, words: change.words, allWords: true });
            }
            searchAll(`after change batch ${at + 1}`);
          }
        },
      ),
      { numRuns: 10 },
    );
  });

  it('finds summaries by trigrams exactly as by reading each summary, after changes too', () => {
    const texts = ['the toolbar crashes', 'wayland flickers', 'crash on tab close', 'ab', ''];
    const trigrams = TrigramIndex.build(texts, texts.length);
    const expectFound = (needle: string) => {
      const found = trigrams.matching(needle, texts.length)!;
      expect(Array.from(found), needle).toEqual(texts.map((text) => (text.includes(needle) ? 1 : 0)));
    };
    for (const needle of ['crash', 'toolbar', 'ab ', 'wayland flickers', 'xyz', 'tab']) expectFound(needle);
    expect(trigrams.matching('ab', texts.length)).toBeNull();
    // A changed text: its old trigrams stay posted, and are checked against the text as it now is.
    texts[0] = 'the menu hangs';
    trigrams.add(0);
    texts.push('a new crash');
    trigrams.add(5);
    for (const needle of ['crash', 'toolbar', 'menu', 'new crash']) {
      const found = trigrams.matching(needle, texts.length)!;
      expect(Array.from(found), needle).toEqual(texts.map((text) => (text.includes(needle) ? 1 : 0)));
    }
  });
});

describe('ranking possible duplicates', () => {
  it('gives the first summaries of the full ranking, whatever the limit', async () => {
    const { rankByWords } = await import('../../shared/application/search/possibleDuplicates.ts');
    const size = 2_000;
    const ids = Int32Array.from({ length: size }, (_, slot) => 10 + slot);
    // Which of 4 words each summary holds (a bit each): about 3 summaries in 10 hold any.
    const masks = fc.oneof(
      { arbitrary: fc.constant(0), weight: 7 },
      { arbitrary: fc.integer({ min: 1, max: 15 }), weight: 3 },
    );
    fc.assert(
      fc.property(fc.array(masks, { minLength: size, maxLength: size }), (masksOfSlots) => {
        const held = Uint32Array.from(masksOfSlots);
        // Expected from first principles: inverse document frequency over the summaries that hold any word.
        const holders = [...held.keys()].filter((slot) => held[slot] !== 0);
        const frequency = [0, 1, 2, 3].map((w) => holders.filter((slot) => held[slot]! & (1 << w)).length);
        const weight = frequency.map((count) => Math.log(1 + size / (1 + count)));
        const score = (slot: number) =>
          [0, 1, 2, 3].reduce((sum, w) => sum + (held[slot]! & (1 << w) ? weight[w]! : 0), 0);
        const ranked = holders.sort((a, b) => score(b) - score(a) || ids[b]! - ids[a]!);
        // Candidates in any order: the ranking does not depend on it.
        const candidates = [...holders].reverse();
        // Both ways of ranking: a short list (limit * 8 below the candidates) and sorting them all.
        const eighth = Math.floor(holders.length / 8);
        for (const limit of [1, 5, 10, 70, 80, eighth, eighth + 1, 500, 5_000]) {
          expect(rankByWords(held, candidates, 4, ids, size, limit), String(limit)).toEqual(ranked.slice(0, limit));
        }
      }),
      { numRuns: 10 },
    );
  });
});

describe('the first matches by bug id, a chunk at a time', () => {
  /** The same bugs in slots out of id order, as an import that wrote in parallel leaves them. */
  const shuffledIndex = new SearchIndex();
  const order = fc.sample(fc.shuffledSubarray([...Array(BASE_BUGS).keys()], { minLength: BASE_BUGS }), {
    numRuns: 1,
    seed: 7,
  })[0]!;
  for (const at of order) {
    const id = at + 1;
    const words = id % 3 === 0 ? ['crash', 'toolbar'] : id % 5 === 0 ? ['menu'] : [];
    shuffledIndex.apply({ bug: bug(id, baseContents[at]!), rev: 1, words });
  }
  // Restricted bugs (group 7) that this caller may see: every other one.
  const visible = (slot: number) => slot % 2 === 0;

  it('gives what the full search gives, first by id, or null when comments must be read first', () => {
    fc.assert(
      fc.property(
        trees,
        fc.constantFrom(baseIndex, shuffledIndex),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom('all', 'every third left out', 'descending'),
        fc.constantFrom(64, 500, 2_048),
        (tree, index, wanted, pick, firstChunk) => {
          const searchEnv = { ...env, index };
          const all = index.allSlots();
          const candidates =
            pick === 'all'
              ? all
              : pick === 'descending'
                ? Int32Array.from(all).reverse()
                : all.filter((slot) => slot % 3 !== 0);
          const full = visibleMatches(
            evaluateSearch(searchEnv, tree, candidates),
            candidates,
            index.restricted,
            visible,
          );
          const expected = Array.from(inIdOrder(index, Int32Array.from(full.matches)).subarray(0, wanted));
          const first = firstMatchesById(searchEnv, tree, candidates, wanted, visible, firstChunk);
          if (first === null) {
            expect(full.undecided.length, JSON.stringify(tree)).toBeGreaterThan(0);
            return;
          }
          expect(Array.from(first), JSON.stringify(tree)).toEqual(expected);
          // Nothing it left undecided could have belonged on the page.
          const last = first.length === wanted ? index.id[first[wanted - 1]!]! : Number.POSITIVE_INFINITY;
          expect(full.undecided.filter((slot) => index.id[slot]! < last)).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('reads the first matches off a bitmap as the full search gives them, when bitmaps decide the tree', () => {
    let decided = 0;
    fc.assert(
      fc.property(
        trees,
        fc.constantFrom(baseIndex, shuffledIndex),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(32, 64, 500, 2_048),
        (tree, index, wanted, firstChunk) => {
          const searchEnv = { ...env, index };
          const bits = bitmapOf(searchEnv, tree);
          if (!bits) return;
          decided++;
          const all = index.allSlots();
          const full = visibleMatches(evaluateSearch(searchEnv, tree, all), all, index.restricted, visible);
          const expected = Array.from(inIdOrder(index, Int32Array.from(full.matches)).subarray(0, wanted));
          const first = firstVisibleBitsById(index, bits, wanted, visible, firstChunk);
          expect(Array.from(first), JSON.stringify(tree)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
    expect(decided).toBeGreaterThan(20);
  });

  it('stops once the page is full: a later slot with a smaller id is still found', () => {
    // Slot order 1..2999 then id 3000's neighbour: the last slot holds a small id.
    const index = new SearchIndex();
    for (let id = 2; id <= 2_000; id++) index.apply({ bug: bug(id, baseContents[id - 1]!), rev: 1 });
    index.apply({ bug: bug(1, baseContents[0]!), rev: 1 });
    const anything: SearchNode = { kind: 'and', children: [], negate: false };
    const first = firstMatchesById({ ...env, index }, anything, index.allSlots(), 3, () => true, 64);
    expect(Array.from(first!, (slot) => index.id[slot])).toEqual([1, 2, 3]);
    expect(index.smallestIdFrom(0)).toBe(1);
    expect(index.smallestIdFrom(index.size - 1)).toBe(1);
    expect(index.smallestIdFrom(100)).toBe(1);
  });
});

describe('counting the visible matches (count_only)', () => {
  it("counts what visibleMatches lists, restricted slots through the caller's test only, and leaves undecided ones", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            truth: fc.oneof(
              { arbitrary: fc.constantFrom(FALSE, TRUE), weight: 20 },
              { arbitrary: fc.constant(MAYBE), weight: 1 },
            ),
            restricted: fc.boolean(),
          }),
          { maxLength: 300 },
        ),
        fc.integer({ min: 2, max: 5 }),
        (rows, modulus) => {
          // Candidates are every other slot, so positions and slots differ.
          const candidates = Int32Array.from(rows, (_, at) => at * 2);
          const truths = Uint8Array.from(rows, (row) => row.truth);
          const restricted = new Uint8Array(rows.length * 2 + 1);
          rows.forEach((row, at) => {
            restricted[at * 2] = row.restricted ? 1 : 0;
          });
          const asked: number[] = [];
          const visible = (slot: number) => {
            asked.push(slot);
            return slot % modulus === 0;
          };
          const counted = countVisible(truths, candidates, restricted, visible);
          expect(asked.every((slot) => restricted[slot] === 1)).toBe(true);
          const listed = visibleMatches(truths, candidates, restricted, visible);
          // Undecided bugs are counted once their comments are read: the count leaves them to that.
          if (rows.some((row) => row.truth === MAYBE)) expect(counted).toBeNull();
          else expect(counted).toBe(listed.matches.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
