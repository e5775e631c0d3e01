import { describe, expect, it } from 'vitest';
import { LeafTables } from '../../shared/domain/search/index/leafTables.ts';
import { SearchIndex } from '../../shared/domain/search/index/searchIndex.ts';
import { plainBug } from './support/bugFixtures.ts';

describe('results kept between searches', () => {
  const index = new SearchIndex();
  for (let id = 1; id <= 10; id++) index.apply({ bug: plainBug(id), rev: 1 });
  const everyOther = (slots: Int32Array, truths: Uint8Array) => {
    for (let i = 0; i < slots.length; i++) truths[i] = slots[i]! % 2 === 0 ? 1 : 0;
  };

  it('keeps a criterion from the second search that asks for it, not the first', () => {
    const tables = new LeafTables();
    const [first, second, third] = [{}, {}, {}];
    expect(tables.worthKeeping('open', first)).toBe(false);
    // The same search asking again (a page tested a chunk at a time) is still its first.
    expect(tables.worthKeeping('open', first)).toBe(false);
    expect(tables.worthKeeping('open', second)).toBe(true);
    expect(Array.from(tables.trueSlots(index, 'open', [], everyOther))).toEqual([0, 2, 4, 6, 8]);
    expect(tables.worthKeeping('open', third)).toBe(true);
    expect(tables.worthKeeping('other', third)).toBe(false);
  });

  it('keeps nothing when the installation keeps nothing', () => {
    const tables = new LeafTables();
    tables.enabled = false;
    expect([tables.worthKeeping('open', {}), tables.worthKeeping('open', {})]).toEqual([false, false]);
  });
});
