import { describe, expect, it } from 'vitest';
import { CODE_COLUMNS, SLOT_COLUMNS } from '../../shared/domain/search/index/columns.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import {
  adoptIndexSnapshot,
  indexFromSnapshot,
  snapshotOf,
} from '../../shared/domain/search/snapshot/indexSnapshot.ts';
import { plainBug } from './support/bugFixtures.ts';

/**
 * Every per-slot column of the index grows with it, whichever way the index came to be: built by
 * writes, read from a snapshot (whole or adopted), and written to after that. A column left at
 * its first 1,024 entries once made counts include private bugs past slot 1,024 and lost their
 * whiteboards and aliases (typed arrays drop writes past their end without a word).
 */

/** Typed arrays of the index that are not one entry per slot (searchIndex.ts). */
const NOT_PER_SLOT = new Set(['idMins', 'slotCounting', 'everySlot']);

/** A bug of every third slot in a group, with a whiteboard and an alias of its own. */
const bugAt = (id: number) =>
  plainBug(id, {
    groupIds: id % 3 === 0 ? [7] : [],
    whiteboard: `wb${id % 5}`,
    alias: `alias-${id}`,
    summary: `Bug number ${id}`,
  });

function indexOf(bugs: number, first = 1): SearchIndex {
  const index = new SearchIndex();
  for (let id = first; id < first + bugs; id++) index.apply({ bug: bugAt(id), rev: 1 });
  return index;
}

/** What the derived columns say of each slot, read the way searches read them. */
function derivedBySlot(index: SearchIndex) {
  const rows: Array<[number, number, string, string]> = [];
  for (let slot = 0; slot < index.size; slot++)
    rows.push([
      index.id[slot]!,
      index.restricted[slot]!,
      index.whiteboards.values[index.whiteboardCode[slot]!]!,
      index.aliases.values[index.aliasCode[slot]!]!,
    ]);
  return rows;
}

const expected = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, at) => {
    const id = from + at;
    return [id, id % 3 === 0 ? 1 : 0, `wb${id % 5}`, `alias-${id}`];
  });

function expectEveryColumnHolds(index: SearchIndex) {
  for (const name of SLOT_COLUMNS) expect(index.column(name).length, name).toBeGreaterThanOrEqual(index.size);
  for (const column of CODE_COLUMNS)
    expect(index.codes[column].length, `codes.${column}`).toBeGreaterThanOrEqual(index.size);
}

describe('the search index columns', () => {
  it('registers every typed array that holds one entry per slot', () => {
    const index = indexOf(1_100);
    index.allSlots();
    index.smallestIdFrom(0);
    const registered = new Set<string>(SLOT_COLUMNS);
    const typed = Object.entries(index)
      .filter(([, value]) => ArrayBuffer.isView(value))
      .map(([name]) => name)
      .filter((name) => !NOT_PER_SLOT.has(name));
    expect(typed.filter((name) => !registered.has(name))).toEqual([]);
    expect(SLOT_COLUMNS.filter((name) => !typed.includes(name))).toEqual([]);
  });

  for (const adopt of [false, true])
    it(`keep every slot past 1,024 after a snapshot load${adopt ? ' that adopts its memory' : ''}, and after writes`, () => {
      const built = indexOf(1_300);
      const bytes = snapshotOf(built);
      const loaded = adopt ? adoptIndexSnapshot(bytes) : indexFromSnapshot(bytes);
      expectEveryColumnHolds(loaded);
      expect(derivedBySlot(loaded)).toEqual(expected(1, 1_300));
      // Writes after the load fill the room the snapshot left, then grow past it.
      for (let id = 1_301; id <= 3_000; id++) loaded.apply({ bug: bugAt(id), rev: 1 });
      expectEveryColumnHolds(loaded);
      expect(derivedBySlot(loaded)).toEqual(expected(1, 3_000));
      // A bug changed past the first 1,024 slots: it leaves its group and loses its alias.
      loaded.apply({ bug: plainBug(1_500, { whiteboard: 'moved', alias: null, summary: 'x' }), rev: 2 });
      const slot = loaded.slotOf(1_500)!;
      expect(derivedBySlot(loaded)[slot]).toEqual([1_500, 0, 'moved', '']);
    });

  it('refuses a column of another element type than the one it replaces', () => {
    const index = new SearchIndex();
    expect(() => index.setColumn('restricted', new Int32Array(2_048))).toThrow(/restricted/);
  });
});
