/**
 * A snapshot's bytes as the frames they were inflated in, read without first copying them into
 * one buffer. At a million bugs the core is 237 MB in 4 MB frames, and writing it again into new
 * memory cost about a second of a cold start (touching new memory costs about 4 ms per MB on the
 * machines we measured). The reader copies each column straight out of the frames instead.
 */
export class FramedBytes {
  readonly length: number;
  /** The offset of each frame's first byte, and the total length last. */
  private readonly starts: number[];

  constructor(readonly frames: readonly Uint8Array[]) {
    this.starts = [0];
    for (const frame of frames) this.starts.push(this.starts.at(-1)! + frame.length);
    this.length = this.starts.at(-1)!;
  }

  /** Bytes `start` to `end`: a view into the frame that holds them all, or a copy when they cross frames. */
  span(start: number, end: number): Uint8Array {
    const view = this.within(start, end);
    if (view) return view;
    const copy = new Uint8Array(end - start);
    this.copyTo(start, end, copy);
    return copy;
  }

  /** Bytes `start` to `end` as a view, when one frame holds them all. */
  within(start: number, end: number): Uint8Array | undefined {
    this.check(start, end);
    const frame = this.frameAt(start);
    if (end > this.starts[frame + 1]!) return undefined;
    const from = start - this.starts[frame]!;
    return this.frames[frame]!.subarray(from, from + (end - start));
  }

  /** Copies bytes `start` to `end` to the beginning of `target`. */
  copyTo(start: number, end: number, target: Uint8Array): void {
    this.check(start, end);
    if (target.length < end - start) throw new RangeError(`${end - start} bytes do not fit in ${target.length}`);
    let written = 0;
    for (let frame = this.frameAt(start); written < end - start; frame++) {
      const from = Math.max(start, this.starts[frame]!) - this.starts[frame]!;
      const to = Math.min(end, this.starts[frame + 1]!) - this.starts[frame]!;
      target.set(this.frames[frame]!.subarray(from, to), written);
      written += to - from;
    }
  }

  private check(start: number, end: number): void {
    if (!(start >= 0 && start <= end && end <= this.length))
      throw new RangeError(`bytes ${start}–${end} are outside ${this.length}`);
  }

  /** The last frame starting at or before `offset`: the one holding it (empty frames before it start there too). */
  private frameAt(offset: number): number {
    let low = 0;
    let high = this.frames.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= offset) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

/** A binary snapshot as one buffer or as its frames. */
export type SnapshotBytes = Uint8Array | FramedBytes;

export const framed = (bytes: SnapshotBytes): FramedBytes =>
  bytes instanceof FramedBytes ? bytes : new FramedBytes([bytes]);
