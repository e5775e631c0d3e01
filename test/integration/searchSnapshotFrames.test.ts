import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FramedBytes, type SnapshotBytes } from '../../shared/domain/search/snapshot/framedBytes.ts';
import { SnapshotReader, SnapshotWriter } from '../../shared/domain/search/snapshot/snapshotFormat.ts';
import { searchKeys } from '../../shared/storage/keys.ts';
import { bucketName, s3Client } from '../../shared/storage/s3Client.ts';
import { loadSnapshot, loadSnapshotPointer, writeSnapshot } from '../../shared/storage/search/searchIndexStore.ts';
import { storeSnapshotInTable } from '../support/tableSnapshot.ts';
import { startTestApp, type TestApp } from '../support/testApp.ts';

/**
 * How a snapshot is stored: each part in frames of 4 MiB compressed on their own (so a cold
 * instance inflates them at once), each frame one object in the bucket. Bytes that do not
 * compress make many frames; they must come back in order, to the byte. Snapshots written in
 * table items, before the bucket, are still read, and old generations leave the bucket.
 */

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});

afterAll(async () => {
  await app?.close();
});

/**
 * A blob of `megabytes` of bytes gzip cannot shrink (a deterministic generator, not zeros), in
 * sections of 1 MiB named `noise<n>`.
 */
function blob(megabytes: number, fields: Record<string, unknown>, seed: number): Uint8Array {
  const writer = new SnapshotWriter({ version: 4, highWater: 5, size: 0, ...fields });
  let state = seed;
  for (let section = 0; section < megabytes; section++) {
    const values = new Uint32Array((1024 * 1024) / 4);
    for (let i = 0; i < values.length; i++) {
      state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
      values[i] = state;
    }
    writer.typed(`noise${section}`, values);
  }
  return writer.finish();
}

/** Every byte of a snapshot read back, in one buffer. */
const wholeOf = (bytes: SnapshotBytes) => (bytes instanceof FramedBytes ? bytes.span(0, bytes.length) : bytes);

/** The bucket's objects of a generation. */
async function objectsOf(generation: string): Promise<string[]> {
  const page = await s3Client().send(
    new ListObjectsV2Command({ Bucket: bucketName(), Prefix: searchKeys.snapshotObjects(generation) }),
  );
  return (page.Contents ?? []).map((object) => object.Key!).sort();
}

describe('the stored search snapshot', () => {
  it('keeps a part larger than a frame whole and in order, a frame per object', async () => {
    const bytes = blob(9, {}, 7);
    const pointer = await writeSnapshot(bytes);
    expect(pointer.parts).toEqual([{ name: 'core', objects: 3 }]);
    expect(await objectsOf(pointer.generation)).toEqual(
      [0, 1, 2].map((frame) => searchKeys.snapshotFrame(pointer.generation, 'core', frame)),
    );
    const loaded = await loadSnapshot();
    expect(loaded!.pointer.generation).toBe(pointer.generation);
    expect(Buffer.from(wholeOf(loaded!.snapshot as SnapshotBytes)).equals(Buffer.from(bytes))).toBe(true);
    expect(loaded!.parts).toEqual({});
    // Read as the frames it came in, without joining them, cut between sections: an adopting
    // reader keeps every section where its frame was inflated.
    const framed = loaded!.snapshot as FramedBytes;
    expect(framed).toBeInstanceOf(FramedBytes);
    const adopting = new SnapshotReader(framed, { adopt: true });
    for (let section = 0; section < 9; section++) {
      const noise = adopting.typed(`noise${section}`, 'u32');
      expect(framed.frames.some((frame) => frame.buffer === noise.buffer)).toBe(true);
      const written = new SnapshotReader(bytes).typed(`noise${section}`, 'u32');
      expect(Buffer.from(noise.buffer, noise.byteOffset, noise.byteLength).equals(Buffer.from(written.buffer))).toBe(
        true,
      );
    }
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

  it('deletes the generation before the previous one, and keeps the previous one for slow readers', async () => {
    const first = await writeSnapshot(blob(1, {}, 11));
    const second = await writeSnapshot(blob(1, {}, 12));
    expect(await objectsOf(first.generation)).toHaveLength(1);
    const third = await writeSnapshot(blob(1, {}, 13));
    expect(await objectsOf(first.generation)).toEqual([]);
    expect(await objectsOf(second.generation)).toHaveLength(1);
    expect(await objectsOf(third.generation)).toHaveLength(1);
  });

  it('deletes what it wrote when another snapshot became current meanwhile', async () => {
    const current = await loadSnapshotPointer();
    const before = await s3Client().send(
      new ListObjectsV2Command({ Bucket: bucketName(), Prefix: searchKeys.snapshotObjectPrefix }),
    );
    expect(await writeSnapshot(blob(1, {}, 14), { basis: 'a generation that is not current' })).toBeNull();
    expect((await loadSnapshotPointer())?.generation).toBe(current?.generation);
    const after = await s3Client().send(
      new ListObjectsV2Command({ Bucket: bucketName(), Prefix: searchKeys.snapshotObjectPrefix }),
    );
    expect(after.KeyCount).toBe(before.KeyCount);
  });

  it('still reads a snapshot stored in table items, as written before the bucket', async () => {
    const core = blob(5, {}, 21);
    const generation = 'before-the-bucket';
    // Two frames of 4 MiB and 1 MiB, each cut into chunks of at most 350 KB, in chunk order.
    const frames = await Promise.all(
      [core.subarray(0, 4 * 1024 * 1024), core.subarray(4 * 1024 * 1024)].map((frame) => promisify(gzip)(frame)),
    );
    const counts = await storeSnapshotInTable(generation, frames, { highWater: 5, bugCount: 0 }, true);
    expect(counts.every((count) => count > 1)).toBe(true);
    const loaded = await loadSnapshot();
    expect(Buffer.from(wholeOf(loaded!.snapshot as SnapshotBytes)).equals(Buffer.from(core))).toBe(true);
    // Its frames were cut every 4 MiB, through sections: the one across the cut is copied, whole.
    const crossing = new SnapshotReader(loaded!.snapshot as FramedBytes, { adopt: true }).typed('noise3', 'u32');
    expect(
      Buffer.from(crossing.buffer).equals(Buffer.from(new SnapshotReader(core).typed('noise3', 'u32').buffer)),
    ).toBe(true);
  });
});
