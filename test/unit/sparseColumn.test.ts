import { describe, expect, it } from 'vitest';
import { emptyList, emptyRecord, emptyText, SparseColumn } from '../../shared/domain/search/sparseColumn.ts';

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
});
