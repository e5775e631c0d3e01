import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FramedBytes, type SnapshotBytes } from '../../shared/domain/search/framedBytes.ts';
import { SnapshotReader, SnapshotWriter } from '../../shared/domain/search/snapshotFormat.ts';
import { loadSnapshot, writeSnapshot } from '../../shared/storage/search/searchIndexStore.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * How a snapshot is stored: each part in frames of 4 MiB compressed on their own (so a cold
 * instance inflates them at once), each frame cut into chunks of at most 350 KB. Bytes that do
 * not compress make many frames and chunks; they must come back in order, to the byte.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** A blob of `megabytes` of bytes gzip cannot shrink (a deterministic generator, not zeros). */
function blob(megabytes: number, fields: Record<string, unknown>, seed: number): Uint8Array {
  const values = new Uint32Array((megabytes * 1024 * 1024) / 4);
  let state = seed;
  for (let i = 0; i < values.length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    values[i] = state;
  }
  return new SnapshotWriter({ version: 4, highWater: 5, size: 0, ...fields }).typed('noise', values).finish();
}

/** Every byte of a snapshot read back, in one buffer. */
const wholeOf = (bytes: SnapshotBytes) => (bytes instanceof FramedBytes ? bytes.span(0, bytes.length) : bytes);

describe('the stored search snapshot', () => {
  it('keeps a part larger than a frame whole and in order', async () => {
    const bytes = blob(9, {}, 7);
    const pointer = await writeSnapshot(bytes);
    expect(pointer.parts).toHaveLength(1);
    expect(pointer.parts![0]!.frames).toHaveLength(3);
    expect(pointer.chunks).toBeGreaterThan(26);
    const loaded = await loadSnapshot();
    expect(loaded!.pointer.generation).toBe(pointer.generation);
    expect(Buffer.from(wholeOf(loaded!.snapshot as SnapshotBytes)).equals(Buffer.from(bytes))).toBe(true);
    expect(loaded!.parts).toEqual({});
    // Read as the frames it came in, without joining them: the section crosses two frame ends.
    expect(loaded!.snapshot).toBeInstanceOf(FramedBytes);
    const noise = new SnapshotReader(loaded!.snapshot as FramedBytes).typed('noise', 'u32');
    expect(Buffer.from(noise.buffer).equals(Buffer.from(new SnapshotReader(bytes).typed('noise', 'u32').buffer))).toBe(
      true,
    );
  });

  it('stores the deferred parts apart, each read back on demand', async () => {
    const core = blob(1, { deferred: ['trigrams', 'words', 'history'] }, 1);
    const parts = {
      trigrams: blob(5, { part: 'trigrams' }, 2),
      words: blob(1, { part: 'words' }, 3),
      history: blob(1, { part: 'history' }, 4),
    };
    const pointer = await writeSnapshot({ core, parts });
    expect(pointer.parts!.map((part) => part.name)).toEqual(['core', 'trigrams', 'words', 'history']);
    const loaded = await loadSnapshot();
    expect(Buffer.from(wholeOf(loaded!.snapshot as SnapshotBytes)).equals(Buffer.from(core))).toBe(true);
    for (const name of ['history', 'words', 'trigrams'] as const) {
      const read = await loaded!.parts[name]!();
      expect(Buffer.from(wholeOf(read)).equals(Buffer.from(parts[name])), name).toBe(true);
    }
  });
});
