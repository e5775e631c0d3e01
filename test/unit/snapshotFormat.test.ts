import { describe, expect, it } from 'vitest';
import { SlotDirectory } from '../../shared/domain/search/index/slotDirectory.ts';
import { FramedBytes } from '../../shared/domain/search/snapshot/framedBytes.ts';
import {
  frameEnds,
  isBinarySnapshot,
  SnapshotReader,
  SnapshotWriter,
} from '../../shared/domain/search/snapshot/snapshotFormat.ts';

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

describe('frames and columns kept where they lie', () => {
  /** A snapshot of sections of these many Int32 each, the first written with room for `room`. */
  const snapshotOf = (lengths: number[], room = 0) => {
    const writer = new SnapshotWriter({ size: lengths[0] });
    lengths.forEach((length, at) => {
      writer.typed(
        `s${at}`,
        Int32Array.from({ length }, (_, i) => at * 1_000_000 + i),
        at === 0 ? room : 0,
      );
    });
    return writer.finish();
  };
  /** The snapshot cut where frameEnds says, each frame copied into a buffer of its own as inflating leaves it. */
  const framesOf = (bytes: Uint8Array, ends: number[]) => {
    return new FramedBytes(
      ends.map((end, frame) => new Uint8Array(bytes.subarray(frame === 0 ? 0 : ends[frame - 1], end))),
    );
  };

  it('cuts frames only between sections, each at most the target unless one section is longer', () => {
    const bytes = snapshotOf([1000, 300, 300, 5000, 10, 10, 700]);
    const target = 4096;
    const ends = frameEnds(bytes, target);
    expect(ends.at(-1)).toBe(bytes.length);
    const reader = new SnapshotReader(bytes);
    const frames = framesOf(bytes, ends);
    let start = 0;
    for (const end of ends) {
      // Only the frame holding the 20,000-byte section may pass the target.
      if (end - start > target) expect(end - start).toBeGreaterThanOrEqual(20_000);
      start = end;
    }
    for (const { name } of reader.sections()) {
      const section = new SnapshotReader(frames, { adopt: true }).typed(name, 'i32');
      const frame = frames.frames.find((each) => each.buffer === section.buffer);
      expect(frame, `${name} lies in one frame`).toBeDefined();
      expect([...section]).toEqual([...reader.typed(name, 'i32')]);
    }
    // Bytes that are not a snapshot are cut evenly.
    expect(frameEnds(new Uint8Array(10_000), 4096)).toEqual([4096, 8192, 10_000]);
  });

  it('views an adopted column with its room, and copies when not adopted, too short or across frames', () => {
    const bytes = snapshotOf([100, 50], 180);
    const frames = framesOf(bytes, frameEnds(bytes, 1 << 20));
    expect(frames.frames).toHaveLength(1);
    const adopted = new SnapshotReader(frames, { adopt: true }).typed('s0', 'i32', 150);
    expect(adopted.buffer).toBe(frames.frames[0]!.buffer);
    expect(adopted.length).toBe(150);
    expect([...adopted.subarray(98, 102)]).toEqual([98, 99, 0, 0]);
    // The room it was written with is zeros, not the next section.
    expect(new SnapshotReader(frames, { adopt: true }).typed('s1', 'i32')[0]).toBe(1_000_000);
    // More than its room, or not adopted: a copy.
    expect(new SnapshotReader(frames, { adopt: true }).typed('s0', 'i32', 181).buffer).not.toBe(
      frames.frames[0]!.buffer,
    );
    expect(new SnapshotReader(frames).typed('s0', 'i32', 150).buffer).not.toBe(frames.frames[0]!.buffer);
    // A section across two frames (snapshots cut evenly, before sections were): a copy, whole.
    const even = framesOf(bytes, frameEnds(new Uint8Array(bytes.length), 256));
    const across = new SnapshotReader(even, { adopt: true }).typed('s0', 'i32', 150);
    expect(even.frames.some((frame) => frame.buffer === across.buffer)).toBe(false);
    expect([...across.subarray(0, 100)]).toEqual(Array.from({ length: 100 }, (_, i) => i));
  });

  it('stores delta-coded integers as differences and reads them back exactly, adopted or copied', () => {
    const ids = Int32Array.of(5, 6, 7, 3, -2_000_000_000, 2_000_000_000, 8);
    const ends = Uint32Array.of(0, 40, 4_000_000_000, 10);
    const bytes = new SnapshotWriter({ version: 5 })
      .typed('ids', ids, 10, { delta: true })
      .typed('ends', ends, 0, { delta: true })
      .strings('texts', ['one', 'three', ''])
      .finish();
    const stored = new SnapshotReader(bytes).sections();
    const idSection = stored.find((section) => section.name === 'ids')!;
    expect(idSection.kind).toBe('i32');
    expect([...new Int32Array(idSection.bytes.slice().buffer)]).toEqual([
      5,
      1,
      1,
      -4,
      -2_000_000_003,
      -294_967_296,
      8 - 2_000_000_000,
    ]);
    for (const adopt of [false, true]) {
      const reader = new SnapshotReader(bytes.slice(), { adopt });
      const read = reader.typed('ids', 'i32', 10);
      expect([...read]).toEqual([...ids, 0, 0, 0]);
      // Read again (adopted: the same bytes, summed once).
      expect([...reader.typed('ids', 'i32', 10)]).toEqual([...ids, 0, 0, 0]);
      expect([...reader.typed('ends', 'u32')]).toEqual([...ends]);
      expect(reader.strings('texts')).toEqual(['one', 'three', '']);
      expect(reader.adoptedAscii('texts')?.ends ?? reader.typed('texts.ends', 'u32')).toEqual(Uint32Array.of(3, 8, 8));
    }
    // Read as another kind: refused, coded or not.
    expect(() => new SnapshotReader(bytes).typed('ids', 'u32')).toThrow(/is i32-delta, not u32/);
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
