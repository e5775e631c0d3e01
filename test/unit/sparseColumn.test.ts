import { describe, expect, it } from 'vitest';
import { emptyList, emptyRecord, emptyText, SparseColumn } from '../../shared/domain/search/index/sparseColumn.ts';

describe('a sparse column', () => {
  it('reads its empty value where nothing is kept, and keeps no empty value', () => {
    const urls = new SparseColumn<string>('', emptyText);
    urls.set(7, 'https://example.test/7');
    urls.set(3, 'https://example.test/3');
    urls.set(5, '');
    urls.set(9, undefined);
    expect(urls.get(7)).toBe('https://example.test/7');
    expect(urls.get(5)).toBe('');
    expect(urls.get(1_000_000)).toBe('');
    expect(urls.entries(100)).toEqual([
      [3, 'https://example.test/3'],
      [7, 'https://example.test/7'],
    ]);
    // Emptied: gone; slots at or past the size are left out.
    urls.set(7, '');
    expect(urls.entries(100)).toEqual([[3, 'https://example.test/3']]);
    expect(urls.entries(3)).toEqual([]);
  });

  it('treats empty lists and records, and null, as nothing', () => {
    const flags = new SparseColumn<readonly number[]>([], emptyList);
    flags.set(1, []);
    flags.set(2, [4]);
    expect(flags.entries(10)).toEqual([[2, [4]]]);
    const custom = new SparseColumn<Record<string, unknown> | null>(null, emptyRecord);
    custom.set(1, {});
    custom.set(2, null);
    custom.set(3, { cf_x: 'y' });
    expect(custom.get(1)).toBeNull();
    expect(custom.entries(10)).toEqual([[3, { cf_x: 'y' }]]);
  });

  describe('holding a snapshot’s values', () => {
    /** Stored values 'v<slot>' at the given slots, counting how many were decoded. */
    const stored = (slots: number[]) => {
      const decoded: number[] = [];
      const column = new SparseColumn<string>('', emptyText);
      column.adoptStored({
        slots: Int32Array.from(slots),
        valueAt: (position) => {
          decoded.push(position);
          return `v${slots[position]}`;
        },
      });
      return { column, decoded };
    };

    it('decodes a value when it is first read, and only that one', () => {
      const { column, decoded } = stored([2, 5, 9, 40]);
      expect(column.get(9)).toBe('v9');
      expect(column.get(9)).toBe('v9');
      expect(column.get(3)).toBe('');
      expect(column.get(41)).toBe('');
      expect(decoded).toEqual([2]);
    });

    it('lets a write win over the stored value, an emptying one included', () => {
      const { column } = stored([2, 5, 9]);
      column.set(5, 'written');
      column.set(9, '');
      column.set(7, 'new');
      expect([column.get(2), column.get(5), column.get(9), column.get(7)]).toEqual(['v2', 'written', '', 'new']);
      expect(column.entries(100)).toEqual([
        [2, 'v2'],
        [5, 'written'],
        [7, 'new'],
      ]);
      // Decoded whole by entries(): the emptied slot stays empty.
      expect(column.get(9)).toBe('');
    });

    it('decodes every stored value at once after many single reads', () => {
      const slots = Array.from({ length: 30_000 }, (_, position) => position * 2);
      const { column, decoded } = stored(slots);
      for (let slot = 0; slot < 20_001 * 2; slot += 2) column.get(slot);
      expect(decoded.length).toBe(30_000);
      expect(column.get(59_998)).toBe('v59998');
      expect(decoded.length).toBe(30_000);
    });

    it('forgets what it held when it takes another snapshot', () => {
      const { column } = stored([1]);
      column.set(3, 'written');
      column.adoptStored({ slots: Int32Array.of(4), valueAt: () => 'other' });
      expect([column.get(1), column.get(3), column.get(4)]).toEqual(['', '', 'other']);
    });
  });
});
