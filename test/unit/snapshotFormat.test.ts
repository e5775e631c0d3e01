import { describe, expect, it } from 'vitest';
import { SlotDirectory } from '../../shared/domain/search/slotDirectory.ts';
import { isBinarySnapshot, SnapshotReader, SnapshotWriter } from '../../shared/domain/search/snapshotFormat.ts';

describe('the binary snapshot container', () => {
  const written = new SnapshotWriter({ version: 3, size: 3 })
    .typed('ids', Int32Array.of(7, -1, 2 ** 31 - 1))
    .typed('times', Float64Array.of(1.5, Number.NaN, -0))
    .typed('bits', Uint8Array.of(1, 0, 255))
    .json('names', ['a', { b: [1, null] }])
    .strings('summaries', ['Crash in İstanbul', '', 'Ünïcödé 🐛 bug', 'ASCII Only'])
    .finish();

  it('reads back every section as written, from any offset of its buffer', () => {
    // A gunzipped snapshot may start anywhere in a pooled buffer: typed sections are copied byte-wise.
    const shifted = new Uint8Array(written.length + 3);
    shifted.set(written, 3);
    for (const bytes of [written, shifted.subarray(3)]) {
      const reader = new SnapshotReader(bytes);
      expect(reader.fields).toEqual({ version: 3, size: 3 });
      expect([...reader.typed('ids', 'i32')]).toEqual([7, -1, 2 ** 31 - 1]);
      expect([...reader.typed('times', 'f64')]).toEqual([1.5, Number.NaN, -0]);
      expect([...reader.typed('bits', 'u8', 5)]).toEqual([1, 0, 255, 0, 0]);
      expect(reader.json('names')).toEqual(['a', { b: [1, null] }]);
      expect(reader.strings('summaries')).toEqual(['Crash in İstanbul', '', 'Ünïcödé 🐛 bug', 'ASCII Only']);
    }
  });

  it('lower-cases strings one by one when lower-casing changes a length', () => {
    // 'İ' lower-cases to two UTF-16 units, so slicing the lower-cased whole would misalign.
    const lower = new SnapshotReader(written).strings('summaries', (text) => text.toLowerCase());
    expect(lower).toEqual(['crash in i̇stanbul', '', 'ünïcödé 🐛 bug', 'ascii only']);
  });

  it('refuses sections of another type, missing sections, and bytes that are not a snapshot', () => {
    const reader = new SnapshotReader(written);
    expect(() => reader.typed('ids', 'f64')).toThrow(/is i32, not f64/);
    expect(() => reader.json('nothing')).toThrow(/no section nothing/);
    expect(isBinarySnapshot(Buffer.from('{"version":2}'))).toBe(false);
    expect(() => new SnapshotReader(Buffer.from('{"version":2}'))).toThrow(/not a binary search snapshot/);
  });
});

describe('bug id → slot directory', () => {
  it('finds dense ids, ids far past the count, and nothing for unknown ids', () => {
    const directory = new SlotDirectory();
    directory.set(5, 0);
    directory.set(2_000_000_000, 1);
    directory.set(3, 2);
    directory.set(70_000, 3);
    expect([5, 2_000_000_000, 3, 70_000, 4, 1_999_999_999, -1].map((id) => directory.get(id))).toEqual([
      0,
      1,
      2,
      3,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('keeps an id it placed in the map when the array later grows past it', () => {
    const directory = new SlotDirectory();
    directory.set(3_000_000, 0);
    for (let id = 1; id <= 800_000; id++) directory.set(id, id);
    directory.set(2_900_000, 800_001);
    expect(directory.get(3_000_000)).toBe(0);
    expect(directory.get(2_900_000)).toBe(800_001);
    expect(directory.get(400_000)).toBe(400_000);
  });

  it('is built from an id column in one pass', () => {
    const directory = SlotDirectory.of(Int32Array.of(10, 11, 99_999_999, 12), 4);
    expect([10, 11, 99_999_999, 12, 13].map((id) => directory.get(id))).toEqual([0, 1, 2, 3, undefined]);
  });
});
