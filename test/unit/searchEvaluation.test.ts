import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { evaluateSearch, keptMatches } from '../../shared/domain/search/searchEvaluation.ts';
import { SearchIndex } from '../../shared/domain/search/searchIndex.ts';
import { compileSearch, type SearchEnvironment, TRUE } from '../../shared/domain/search/searchPlanner.ts';
import type { SearchNode } from '../../shared/domain/search/searchQuery.ts';
import { TrigramIndex } from '../../shared/domain/search/trigramIndex.ts';

/**
 * The criterion-at-a-time evaluation (searchEvaluation.ts) must give exactly what the row-at-a-time
 * compiled test gives, MAYBE for comment text included: checked on random trees over an index
 * large enough for the trigram path.
 */
let seed = 42;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const WORDS = ['crash', 'toolbar', 'wayland', 'flicker', 'menu', 'tab', 'print', 'ünïcode', 'save'];
const STATUSES = ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED'];

const bug = (id: number): Bug => ({
  id,
  alias: id % 50 === 0 ? `alias-${id}` : null,
  summary: Array.from({ length: 4 }, () => pick(WORDS)).join(' '),
  status: pick(STATUSES),
  resolution: '',
  isConfirmed: true,
  productId: 1 + (id % 3),
  componentId: 10 + (id % 5),
  version: 'unspecified',
  targetMilestone: '---',
  bugType: 'defect',
  priority: pick(['High', 'Low', '---']),
  severity: 'normal',
  platform: 'PC',
  opSys: 'Linux',
  assigneeId: 1 + (id % 4),
  reporterId: 1,
  qaContactId: null,
  url: '',
  whiteboard: id % 7 === 0 ? 'triage' : id % 11 === 0 ? 'Needs-Info' : '',
  deadline: null,
  creationTime: '2025-01-01T00:00:00Z',
  lastChangeTime: '2025-01-02T00:00:00Z',
  filedVia: 'api',
  isCcAccessible: true,
  isCreatorAccessible: true,
  estimatedTime: 0,
  remainingTime: 0,
  actualTime: 0,
  ccIds: [],
  keywordIds: id % 4 === 0 ? [1] : id % 9 === 0 ? [2, 3] : [],
  groupIds: id % 13 === 0 ? [7] : [],
  dependsOn: [],
  blocks: [],
  regressedBy: [],
  regressions: [],
  duplicates: [],
  dupeOf: null,
  seeAlso: [],
  flags: [],
  commentCount: 1 + (id % 5),
  attachmentCount: 0,
  custom: {},
  tags: {},
});

const index = new SearchIndex();
for (let id = 1; id <= 3_000; id++)
  index.apply({ bug: bug(id), rev: 1, words: id % 3 === 0 ? ['crash', 'toolbar'] : id % 5 === 0 ? ['menu'] : [] });
const products = [1, 2, 3].map((id) => ({
  product: { id, name: ['Browser', 'Mail', 'Toolbar Crash Reporter'][id - 1], classificationId: id === 3 ? 2 : 1 },
  components: [10, 11, 12, 13, 14]
    .filter((component) => component % 3 === id % 3 || id === 1)
    .map((component) => ({ id: component, name: `Part ${component}` })),
})) as unknown as SearchEnvironment['products'];
const env: SearchEnvironment = {
  index,
  callerId: 1,
  callerLogin: 'me@x.test',
  products,
  classifications: [
    { id: 1, name: 'Client' },
    { id: 2, name: 'Tools' },
  ] as unknown as SearchEnvironment['classifications'],
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

function randomLeaf(): SearchNode {
  const negate = random() < 0.2;
  switch (
    pick([
      'summary',
      'summary',
      'status',
      'priority',
      'count',
      'comment',
      'whiteboard',
      'product',
      'component',
      'classification',
      'keywords',
      'group',
      'alias',
      'words',
    ])
  ) {
    case 'words':
      return {
        kind: 'leaf',
        field: 'content',
        op: pick(['matches', 'anywords', 'allwords']),
        value: pick(['crash', 'crash menu', 'toolbar crash', 'nothing']),
        negate,
      };
    case 'product':
      return {
        kind: 'leaf',
        field: 'product',
        op: pick(['equals', 'substring', 'regexp', 'anyexact']),
        value: pick(['Browser', 'crash', 'mail,browser', 'nothing']),
        negate,
      };
    case 'component':
      return {
        kind: 'leaf',
        field: 'component',
        op: pick(['equals', 'substring']),
        value: pick(['Part 11', 'part 1', 'none']),
        negate,
      };
    case 'classification':
      return { kind: 'leaf', field: 'classification', op: 'equals', value: pick(['Client', 'Tools', 'Other']), negate };
    case 'keywords':
      return {
        kind: 'leaf',
        field: 'keywords',
        op: pick([
          'equals',
          'anyexact',
          'substring',
          'anywords',
          'isempty',
          'allwords',
          'anywordssubstr',
          'allwordssubstr',
          'regexp',
        ]),
        value: pick([
          'crash',
          'perf,regression',
          'perf',
          'reg',
          'toolbar',
          'reg crash',
          'ash, perf',
          '',
          'crash perf regression',
        ]),
        negate,
      };
    case 'group':
      return {
        kind: 'leaf',
        field: 'bug_group',
        op: pick(['equals', 'isnotempty']),
        value: pick(['secret', 'other']),
        negate,
      };
    case 'alias':
      return {
        kind: 'leaf',
        field: 'alias',
        op: pick(['substring', 'equals', 'isempty', 'regexp']),
        value: pick(['alias-1', 'ALIAS', '50$', '']),
        negate,
      };
    case 'summary':
      return {
        kind: 'leaf',
        field: 'short_desc',
        op: 'substring',
        value: pick([...WORDS, 'ra', 'sh t', 'Wayland Flicker', 'zzz']),
        negate,
      };
    case 'status':
      return {
        kind: 'leaf',
        field: 'bug_status',
        op: 'anyexact',
        value: `${pick(STATUSES)},${pick(STATUSES)}`,
        negate,
      };
    case 'priority':
      return { kind: 'leaf', field: 'priority', op: 'equals', value: pick(['High', 'Low']), negate };
    case 'count':
      return {
        kind: 'leaf',
        field: 'longdescs.count',
        op: 'greaterthan',
        value: String(Math.floor(random() * 5)),
        negate,
      };
    // Comment text the index does not hold: MAYBE, which the evaluation must carry like the compiled test.
    case 'comment':
      return { kind: 'leaf', field: 'longdesc', op: 'substring', value: pick(WORDS), negate };
    default:
      return {
        kind: 'leaf',
        field: 'status_whiteboard',
        op: pick(['substring', 'equals', 'isempty', 'casesubstring']),
        value: pick(['tri', 'needs-info', 'Needs', '']),
        negate,
      };
  }
}

function randomTree(depth: number): SearchNode {
  if (depth === 0 || random() < 0.3) return randomLeaf();
  const children = Array.from({ length: Math.floor(random() * 4) }, () => randomTree(depth - 1));
  return { kind: random() < 0.5 ? 'and' : 'or', children, negate: random() < 0.2 };
}

describe('criterion-at-a-time search evaluation', () => {
  it('agrees with the row-at-a-time test on every slot, for random trees', () => {
    let nextId = 3_001;
    const revisions = new Map<number, number>();
    for (let round = 0; round < 400; round++) {
      // Results kept between searches must follow changed and new bugs.
      if (round % 40 === 39) {
        for (let change = 0; change < 25; change++) {
          const id = change < 20 || round % 80 === 39 ? 1 + Math.floor(random() * 3_000) : nextId++;
          const rev = (revisions.get(id) ?? 1) + 1;
          revisions.set(id, rev);
          index.apply({ bug: bug(id), rev, words: random() < 0.5 ? ['crash'] : ['menu', 'toolbar'], allWords: true });
        }
      }
      const tree = randomTree(3);
      const test = compileSearch(env, tree);
      const slots = round % 3 === 0 ? index.allSlots().filter((slot) => slot % 3 !== 0) : index.allSlots();
      const truths = evaluateSearch(env, tree, slots);
      const expected = Array.from(slots, (slot) => test(slot));
      expect(Array.from(truths), JSON.stringify(tree)).toEqual(expected);
      const kept = keptMatches(env, tree);
      if (kept)
        expect(Array.from(kept), JSON.stringify(tree)).toEqual(
          Array.from(index.allSlots()).filter((slot) => test(slot) === TRUE),
        );
    }
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
    const { rankByWords } = await import('../../shared/application/search/bugSearch.ts');
    const size = 2_000;
    const held = Uint32Array.from({ length: size }, () => (random() < 0.3 ? 1 + Math.floor(random() * 15) : 0));
    const ids = Int32Array.from({ length: size }, (_, slot) => 10 + slot);
    // Expected from first principles: inverse document frequency over the summaries that hold any word.
    const holders = [...held.keys()].filter((slot) => held[slot] !== 0);
    const frequency = [0, 1, 2, 3].map((w) => holders.filter((slot) => held[slot]! & (1 << w)).length);
    const weight = frequency.map((count) => Math.log(1 + size / (1 + count)));
    const score = (slot: number) => [0, 1, 2, 3].reduce((sum, w) => sum + (held[slot]! & (1 << w) ? weight[w]! : 0), 0);
    const ranked = holders.sort((a, b) => score(b) - score(a) || ids[b]! - ids[a]!);
    // Candidates in any order: the ranking does not depend on it.
    const candidates = [...holders].reverse();
    for (const limit of [1, 5, 10, 70, 80, 500, 5_000]) {
      expect(rankByWords(held, candidates, 4, ids, size, limit), String(limit)).toEqual(ranked.slice(0, limit));
    }
  });
});
