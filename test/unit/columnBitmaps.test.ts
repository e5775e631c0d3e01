import { describe, expect, it } from 'vitest';
import {
  ColumnBitmaps,
  clearPast,
  countSet,
  filledBitmap,
  MAX_VALUES,
  setSlots,
} from '../../shared/domain/search/index/columnBitmaps.ts';

describe('bitmaps of slots by value', () => {
  it('gives each value its slots, and follows changed and added slots past the first words', () => {
    const column = Int32Array.from({ length: 70 }, (_, slot) => slot % 3);
    const bitmaps = ColumnBitmaps.build(column, 70, 1)!;
    expect(Array.from(setSlots(bitmaps.of(2)))).toEqual(Array.from({ length: 23 }, (_, n) => 3 * n + 2));
    expect(countSet(bitmaps.of(7))).toBe(0);
    const grown = new Int32Array(200);
    grown.set(column);
    grown[5] = 7;
    grown[150] = 0;
    expect(bitmaps.update(grown, 151, [5, 150], 3)).toBe(true);
    expect(bitmaps.version).toBe(3);
    expect(Array.from(setSlots(bitmaps.of(7)))).toEqual([5]);
    expect(setSlots(bitmaps.of(2))).not.toContain(5);
    expect(Array.from(setSlots(bitmaps.of(0))).slice(-2)).toEqual([69, 150]);
    expect([...bitmaps.values()].sort()).toEqual([0, 1, 2, 7]);
  });

  it('gives none for a column of more distinct values than it keeps', () => {
    const distinct = Int32Array.from({ length: MAX_VALUES + 1 }, (_, slot) => slot);
    expect(ColumnBitmaps.build(distinct, distinct.length, 0)).toBeNull();
    const few = ColumnBitmaps.build(distinct, MAX_VALUES, 0)!;
    expect(few.update(distinct, distinct.length, [MAX_VALUES], 1)).toBe(false);
  });

  it('counts, lists and clears bits, within another bitmap or without it', () => {
    const all = filledBitmap(40, true);
    expect(countSet(all)).toBe(40);
    expect(Array.from(setSlots(filledBitmap(40, false)))).toEqual([]);
    const some = Uint32Array.of(0b1011, 1 << 31);
    expect(Array.from(setSlots(some))).toEqual([0, 1, 3, 63]);
    expect(Array.from(setSlots(some, Uint32Array.of(0b10, 0xffffffff)))).toEqual([1, 63]);
    expect(countSet(some, Uint32Array.of(0b1, 0))).toBe(3);
    clearPast(some, 2);
    expect(Array.from(some)).toEqual([0b11, 0]);
  });
});
