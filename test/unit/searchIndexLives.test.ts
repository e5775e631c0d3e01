import { describe, expect, it } from 'vitest';
import type { Bug } from '../../shared/domain/bug/bug.ts';
import { DEFAULT_FIELD_VALUES } from '../../shared/domain/catalog/fieldValues.ts';
import type { SearchEnvironment } from '../../shared/domain/search/evaluation/searchEnvironment.ts';
import { evaluateSearch } from '../../shared/domain/search/evaluation/searchEvaluation.ts';
import { CODE_COLUMNS, commentWords, DEFERRED_PARTS } from '../../shared/domain/search/index/columns.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { countVisible, firstMatchesById, visibleMatches } from '../../shared/domain/search/page/firstMatches.ts';
import type { SearchNode } from '../../shared/domain/search/query/searchQuery.ts';
import {
  adoptIndexSnapshot,
  attachIndexPart,
  indexFromSnapshot,
  snapshotOf,
  snapshotPartsOf,
} from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * The index in each of its lives holds the same bugs the same way and answers the same: built by
 * writes, read from a whole snapshot, adopted from a core whose parts come later, and written to
 * after a load, past every size the index has inside it (its first columns' 1,024 slots, kept
 * results from 2,048, id blocks of 4,096, history chunks of 8,192, first-match chunks of 16,384,
 * sparse columns decoded whole after 20,000 reads). The answers of the index built by writes from
 * the same bugs are the reference; the integration oracle (searchOracle.test.ts) checks that one
 * against Get Bug.
 */

const LOADED_BUGS = 21_000;
const LATER_BUGS = 4_000;

const bugOf = (id: number, generation = 0): Bug =>
  plainBug(id, {
    summary: `${id % 7 === 0 ? 'crash' : 'hang'} in ${id % 5 === 0 ? 'toolbar' : 'menu'} ${id + generation}`,
    status: ['CONFIRMED', 'IN_PROGRESS', 'RESOLVED'][(id + generation) % 3]!,
    resolution: (id + generation) % 3 === 2 ? 'FIXED' : '',
    priority: ['High', 'Low', '---'][id % 3]!,
    productId: 1 + (id % 3),
    groupIds: (id + generation) % 11 === 0 ? [7] : [],
    whiteboard: (id + generation) % 6 === 0 ? `wb${id % 5}` : '',
    alias: id % 9 === 0 ? `alias-${id}-${generation}` : null,
    keywordIds: id % 8 === 0 ? [1] : [],
    ccIds: id % 10 === 0 ? [5] : [],
  });
const wordsOf = (id: number) => commentWords([`${id % 4 === 0 ? 'kestrel' : 'lantern'} seen`]);

const env = (index: SearchIndex): SearchEnvironment => ({
  index,
  callerId: 5,
  callerLogin: 'cc@x.test',
  products: [1, 2, 3].map((id) => ({
    product: { id, name: `Product ${id}`, classificationId: 1 },
    components: [{ id: 1, name: 'Part' }],
  })) as unknown as SearchEnvironment['products'],
  classifications: [{ id: 1, name: 'All' }] as unknown as SearchEnvironment['classifications'],
  values: DEFAULT_FIELD_VALUES,
  groups: [{ id: 7, name: 'secret' }] as unknown as SearchEnvironment['groups'],
  keywords: [{ id: 1, name: 'perf' }] as unknown as SearchEnvironment['keywords'],
  flagTypes: [],
  loginIds: new Map([['cc@x.test', 5]]),
  now: Date.parse('2025-06-01T00:00:00Z'),
  insider: false,
});

const leaf = (field: string, op: string, value: string, negate = false): SearchNode => ({
  kind: 'leaf',
  field,
  op,
  value,
  negate,
});
const and = (...children: SearchNode[]): SearchNode => ({ kind: 'and', children, negate: false });
const or = (...children: SearchNode[]): SearchNode => ({ kind: 'or', children, negate: false });

const SEARCHES: Record<string, SearchNode> = {
  everything: and(),
  whiteboard: and(leaf('status_whiteboard', 'substring', 'wb1')),
  'whiteboard empty': and(leaf('status_whiteboard', 'isempty', '')),
  alias: and(leaf('alias', 'substring', 'alias-1')),
  group: and(leaf('bug_group', 'equals', 'secret')),
  'not in the group': and(leaf('bug_group', 'equals', 'secret', true)),
  'status and product': and(
    leaf('bug_status', 'anyexact', 'CONFIRMED,IN_PROGRESS'),
    leaf('product', 'equals', 'Product 2'),
  ),
  summary: and(leaf('short_desc', 'substring', 'crash in toolbar')),
  'comment word': and(leaf('content', 'matches', 'kestrel')),
  keywords: and(leaf('keywords', 'anywords', 'perf')),
  cc: and(leaf('cc', 'equals', 'cc@x.test')),
  'whiteboard or alias': and(or(leaf('status_whiteboard', 'equals', 'wb2'), leaf('alias', 'substring', '-0'))),
  changed: and(leaf('bug_status', 'changedto', 'RESOLVED')),
};

/** Restricted bugs a caller in no group sees: those whose CC list holds them (id % 10 === 0). */
const visibleTo = (index: SearchIndex) => (slot: number) => index.lists.ccIds.get(slot).includes(5);

/** What each search answers in `index`: ids of the visible matches, their count, and a first page. */
function answers(index: SearchIndex) {
  const visible = visibleTo(index);
  return Object.fromEntries(
    Object.entries(SEARCHES).map(([name, tree]) => {
      const all = index.allSlots();
      const truths = evaluateSearch(env(index), tree, all);
      const { matches } = visibleMatches(truths, all, index.restricted, visible);
      const first = firstMatchesById(env(index), tree, all, 25, visible, 4_096);
      return [
        name,
        {
          ids: Array.from(matches, (slot) => index.id[slot]!),
          count: countVisible(truths, all, index.restricted, visible),
          first: first && Array.from(first, (slot) => index.id[slot]!),
        },
      ];
    }),
  );
}

/** Every slot as the columns say it, values decoded (codes differ between lives, their values do not). */
function rows(index: SearchIndex): string[] {
  const out: string[] = [];
  for (let slot = 0; slot < index.size; slot++) {
    const codes = CODE_COLUMNS.map((column) => index.vocabularies[column].values[index.codes[column][slot]!]);
    out.push(
      JSON.stringify([
        index.id[slot],
        index.rev[slot],
        index.productId[slot],
        index.restricted[slot],
        index.whiteboards.values[index.whiteboardCode[slot]!],
        index.aliases.values[index.aliasCode[slot]!],
        index.whiteboard.get(slot),
        index.alias.get(slot),
        index.summaryAt(slot),
        codes,
        index.lists.groupIds.get(slot),
      ]),
    );
  }
  return out;
}

function built(bugs: number, later = 0): SearchIndex {
  const index = new SearchIndex();
  for (let id = 1; id <= bugs; id++)
    index.apply({
      bug: bugOf(id),
      rev: 1,
      words: wordsOf(id),
      history: [{ bugId: id, when: '2025-01-02T00:00:00Z', whoId: 1, changes: [] }],
    });
  applyLater(index, bugs, later);
  return index;
}

/** After the load: every 7th loaded bug changes (group, whiteboard, status), and new bugs arrive. */
function applyLater(index: SearchIndex, loaded: number, later: number): void {
  if (later === 0) return;
  for (let id = 7; id <= loaded; id += 7)
    index.apply({
      bug: bugOf(id, 1),
      rev: 2,
      history: [
        {
          bugId: id,
          when: '2025-02-02T00:00:00Z',
          whoId: 1,
          changes: [{ field_name: 'bug_status', removed: 'CONFIRMED', added: 'RESOLVED' }],
        },
      ],
    });
  for (let id = loaded + 1; id <= loaded + later; id++) index.apply({ bug: bugOf(id), rev: 1, words: wordsOf(id) });
}

describe('the search index in each of its lives', () => {
  const reference = built(LOADED_BUGS, LATER_BUGS);
  const expected = answers(reference);
  const expectedRows = rows(reference);

  it('holds and answers the same when loaded from a whole snapshot and written to', () => {
    const loaded = indexFromSnapshot(snapshotOf(built(LOADED_BUGS)));
    applyLater(loaded, LOADED_BUGS, LATER_BUGS);
    expect(rows(loaded)).toEqual(expectedRows);
    expect(answers(loaded)).toEqual(expected);
  });

  it('holds and answers the same adopted from a core, written to before its parts come', () => {
    const { core, parts } = snapshotPartsOf(built(LOADED_BUGS));
    const adopted = adoptIndexSnapshot(core);
    expect(adopted.missingParts.sort()).toEqual([...DEFERRED_PARTS].sort());
    applyLater(adopted, LOADED_BUGS, LATER_BUGS);
    for (const part of DEFERRED_PARTS) attachIndexPart(adopted, part, parts[part]);
    expect(rows(adopted)).toEqual(expectedRows);
    expect(answers(adopted)).toEqual(expected);
  });

  it('says the same of each bug in every life: the visible counts equal the visible lists', () => {
    for (const [name, answer] of Object.entries(expected)) {
      expect(answer.count, name).toBe(answer.ids.length);
      expect(answer.first, name).toEqual(answer.ids.slice(0, 25));
    }
    // The searches find bugs past every boundary, restricted ones included.
    expect(Math.max(...expected.whiteboard!.ids)).toBeGreaterThan(LOADED_BUGS);
    expect(expected.group!.ids.length).toBeGreaterThan(100);
  });
});
