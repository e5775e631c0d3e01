import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../shared/domain/bug/bug.ts';
import { commentWords, DEFERRED_PARTS, type DeferredPart } from '../../shared/domain/search/index/columns.ts';
import { IndexPartPending, SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import {
  attachIndexPart,
  indexFromSnapshot,
  snapshotOf,
  snapshotPartsOf,
} from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * A cold instance reads the snapshot's core, answers, and reads the deferred parts (history,
 * comment words, summary trigrams) after it, while the change log keeps coming in. However the
 * parts and the changes interleave, the index must end exactly as if it had been read whole.
 */

const change = (bugId: number, when: string, removed: string, added: string): HistoryEntry => ({
  bugId,
  when,
  whoId: 2,
  changes: [{ field_name: 'bug_status', removed, added }],
});

function seededIndex(): SearchIndex {
  const index = new SearchIndex();
  index.highWater = 1_000;
  for (let id = 1; id <= 40; id++)
    index.apply({
      bug: plainBug(id, { summary: `Crash number ${id} in the toolbar` }),
      rev: 1,
      words: commentWords([`comment ${id} about flickering`]),
      privateWords: id % 7 === 0 ? ['secret'] : [],
      history: id % 3 === 0 ? [change(id, '2025-01-02T00:00:00Z', 'UNCONFIRMED', 'CONFIRMED')] : [],
    });
  return index;
}

/** What the change log brings after the snapshot: a new bug, a retitled one, new words and history, a privacy change. */
function applyLaterChanges(index: SearchIndex): void {
  index.apply({
    bug: plainBug(41, { summary: 'Wayland window flickers' }),
    rev: 1,
    words: ['wayland'],
    history: [change(41, '2025-02-01T00:00:00Z', 'UNCONFIRMED', 'NEW')],
  });
  index.apply({
    bug: plainBug(5, { summary: 'Renamed: the parser hangs' }),
    rev: 2,
    words: ['parser'],
    history: [change(5, '2025-02-02T00:00:00Z', 'CONFIRMED', 'RESOLVED')],
  });
  // Bug 7's comments were all made public: its words are replaced.
  index.apply({
    bug: plainBug(7, { summary: 'Crash number 7 in the toolbar' }),
    rev: 2,
    words: ['public'],
    allWords: true,
  });
}

function partsOf(index: SearchIndex) {
  return snapshotPartsOf(index);
}

describe('a search index read in parts', () => {
  it('holds every column but the deferred parts, and refuses to search those until they come', () => {
    const source = seededIndex();
    const cold = indexFromSnapshot(partsOf(source).core);
    expect(cold.size).toBe(40);
    expect(cold.missingParts.sort()).toEqual([...DEFERRED_PARTS].sort());
    expect(cold.summary[cold.slotOf(3)!]).toBe('Crash number 3 in the toolbar');
    expect(() => cold.words).toThrow(IndexPartPending);
    expect(() => cold.privateWords).toThrow(IndexPartPending);
    expect(() => cold.history).toThrow(IndexPartPending);
    expect(() => cold.summaryTrigrams()).toThrow(IndexPartPending);
    try {
      cold.summaryTrigrams();
    } catch (error) {
      expect((error as IndexPartPending).part).toBe('trigrams');
    }
  });

  const orders: DeferredPart[][] = [
    ['trigrams', 'words', 'history'],
    ['history', 'words', 'trigrams'],
    ['words', 'history', 'trigrams'],
  ];
  for (const order of orders) {
    it(`ends as the whole snapshot would, changes applied before the parts came (${order.join(', ')})`, () => {
      const source = seededIndex();
      const { core, parts } = partsOf(source);
      const whole = indexFromSnapshot(snapshotOf(source));
      applyLaterChanges(whole);

      const cold = indexFromSnapshot(core);
      applyLaterChanges(cold);
      // One part arrives, then more changes come, then the rest.
      attachIndexPart(cold, order[0]!, parts[order[0]!]);
      cold.apply({ bug: plainBug(42, { summary: 'Late arrival' }), rev: 1, words: ['late'] });
      whole.apply({ bug: plainBug(42, { summary: 'Late arrival' }), rev: 1, words: ['late'] });
      for (const part of order.slice(1)) attachIndexPart(cold, part, parts[part]);

      expect(cold.missingParts).toEqual([]);
      expect(snapshotOf(cold)).toEqual(snapshotOf(whole));
      const slots = (found: Uint8Array | null) =>
        [...(found ?? []).keys()].filter((slot) => found![slot] === 1).map((slot) => cold.id[slot]);
      expect(slots(cold.summaryTrigrams().matching('flicker', cold.size))).toEqual([41]);
      expect(slots(cold.summaryTrigrams().matching('parser', cold.size))).toEqual([5]);
      const withWord = (word: string) => {
        const found: number[] = [];
        cold.words.forEach(word, (slot) => found.push(cold.id[slot]!));
        return found.sort((a, b) => a - b);
      };
      expect(withWord('wayland')).toEqual([41]);
      expect(withWord('public')).toEqual([7]);
      expect(withWord('flickering')).not.toContain(7);
    });
  }

  it('reads a whole snapshot with nothing missing, and ignores a part it already has', () => {
    const source = seededIndex();
    const whole = indexFromSnapshot(snapshotOf(source));
    expect(whole.missingParts).toEqual([]);
    const before = snapshotOf(whole);
    attachIndexPart(whole, 'words', partsOf(source).parts.words);
    expect(snapshotOf(whole)).toEqual(before);
  });

  it('refuses a part for another part, and a part larger than its index', () => {
    const source = seededIndex();
    const { core, parts } = partsOf(source);
    const cold = indexFromSnapshot(core);
    expect(() => attachIndexPart(cold, 'words', parts.history)).toThrow(/not words/);
    const bigger = seededIndex();
    bigger.apply({ bug: plainBug(99), rev: 1 });
    const small = indexFromSnapshot(partsOf(source).core);
    expect(() => attachIndexPart(small, 'history', partsOf(bigger).parts.history)).toThrow(/41 bugs/);
  });
});
