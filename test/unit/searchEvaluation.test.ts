import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug.ts';
import { SearchIndex } from '../../shared/domain/searchIndex.ts';
import { evaluateSearch } from '../../shared/domain/searchEvaluation.ts';
import { compileSearch, type SearchEnvironment } from '../../shared/domain/searchPlanner.ts';
import type { SearchNode } from '../../shared/domain/searchQuery.ts';
import { TrigramIndex } from '../../shared/domain/trigramIndex.ts';

/**
 * The criterion-at-a-time evaluation (searchEvaluation.ts) must give exactly what the row-at-a-time
 * compiled test gives, MAYBE for comment text included: checked on random trees over an index
 * large enough for the trigram path.
 */
let seed = 42;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const WORDS = ['crash', 'toolbar', 'wayland', 'flicker', 'menu', 'tab', 'print', 'ünïcode', 'save'];
const STATUSES = ['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED'];

const bug = (id: number): Bug => ({
  id, alias: id % 50 === 0 ? `alias-${id}` : null, summary: Array.from({ length: 4 }, () => pick(WORDS)).join(' '), status: pick(STATUSES), resolution: '',
  isConfirmed: true, productId: 1 + (id % 3), componentId: 1, version: 'unspecified', targetMilestone: '---', bugType: 'defect', priority: pick(['High', 'Low', '---']),
  severity: 'normal', platform: 'PC', opSys: 'Linux', assigneeId: 1 + (id % 4), reporterId: 1, qaContactId: null, url: '', whiteboard: id % 7 === 0 ? 'triage' : '',
  deadline: null, creationTime: '2025-01-01T00:00:00Z', lastChangeTime: '2025-01-02T00:00:00Z', filedVia: 'api', isCcAccessible: true, isCreatorAccessible: true,
  estimatedTime: 0, remainingTime: 0, actualTime: 0, ccIds: [], keywordIds: [], groupIds: [], dependsOn: [], blocks: [], regressedBy: [], regressions: [], duplicates: [],
  dupeOf: null, seeAlso: [], flags: [], commentCount: 1 + (id % 5), attachmentCount: 0, custom: {}, tags: {},
});

const index = new SearchIndex();
for (let id = 1; id <= 3_000; id++) index.apply({ bug: bug(id), rev: 1 });
const env: SearchEnvironment = {
  index, callerId: 1, callerLogin: 'me@x.test', products: [], classifications: [], groups: [], keywords: [], flagTypes: [],
  loginIds: new Map(), now: Date.parse('2025-06-01T00:00:00Z'), insider: false,
};

function randomLeaf(): SearchNode {
  const negate = random() < 0.2;
  switch (pick(['summary', 'summary', 'status', 'priority', 'count', 'comment', 'whiteboard'])) {
    case 'summary': return { kind: 'leaf', field: 'short_desc', op: 'substring', value: pick([...WORDS, 'ra', 'sh t', 'Wayland Flicker', 'zzz']), negate };
    case 'status': return { kind: 'leaf', field: 'bug_status', op: 'anyexact', value: `${pick(STATUSES)},${pick(STATUSES)}`, negate };
    case 'priority': return { kind: 'leaf', field: 'priority', op: 'equals', value: pick(['High', 'Low']), negate };
    case 'count': return { kind: 'leaf', field: 'longdescs.count', op: 'greaterthan', value: String(Math.floor(random() * 5)), negate };
    // Comment text the index does not hold: MAYBE, which the evaluation must carry like the compiled test.
    case 'comment': return { kind: 'leaf', field: 'longdesc', op: 'substring', value: pick(WORDS), negate };
    default: return { kind: 'leaf', field: 'status_whiteboard', op: 'substring', value: 'tri', negate };
  }
}

function randomTree(depth: number): SearchNode {
  if (depth === 0 || random() < 0.3) return randomLeaf();
  const children = Array.from({ length: Math.floor(random() * 4) }, () => randomTree(depth - 1));
  return { kind: random() < 0.5 ? 'and' : 'or', children, negate: random() < 0.2 };
}

describe('criterion-at-a-time search evaluation', () => {
  it('agrees with the row-at-a-time test on every slot, for random trees', () => {
    for (let round = 0; round < 150; round++) {
      const tree = randomTree(3);
      const test = compileSearch(env, tree);
      const slots = round % 3 === 0 ? index.allSlots().filter((slot) => slot % 3 !== 0) : index.allSlots();
      const truths = evaluateSearch(env, tree, slots);
      const expected = Array.from(slots, (slot) => test(slot));
      expect(Array.from(truths), JSON.stringify(tree)).toEqual(expected);
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
