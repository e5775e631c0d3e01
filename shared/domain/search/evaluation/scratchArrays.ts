/**
 * Typed arrays that search evaluation reuses from one search to the next, one set per level of
 * the search tree being evaluated. A criterion over the largest product of a million bugs decides
 * half a million slots. A new array that large is new memory, and on the machines we measured,
 * touching new memory costs about 4 ms per MB: more than deciding the slots. Memory already
 * touched by an earlier search costs nothing to write again.
 *
 * Evaluation is synchronous, so one set per process is enough. What a level hands out stays valid
 * until the next request for the same level.
 */

/** Deeper levels (rare: groups nested this far) get fresh arrays instead of keeping more. */
const KEPT_LEVELS = 8;
/** Arrays grow in steps of this many elements, so slowly growing searches do not reallocate each time. */
const GROWTH_STEP = 65_536;

const capacityFor = (length: number) => Math.ceil(Math.max(length, 1) / GROWTH_STEP) * GROWTH_STEP;

export class ScratchArrays {
  private readonly truthArrays: Uint8Array[] = [];
  private readonly slotArrays: [Int32Array | undefined, Int32Array | undefined][] = [];

  /** `length` zeroed bytes for `level`: a criterion's truths start all FALSE. */
  truths(level: number, length: number): Uint8Array {
    if (level >= KEPT_LEVELS) return new Uint8Array(length);
    const kept = this.truthArrays[level];
    if (kept && kept.length >= length) return kept.subarray(0, length).fill(0);
    const array = new Uint8Array(capacityFor(length));
    this.truthArrays[level] = array;
    return array.subarray(0, length);
  }

  /**
   * `length` slots for `level` (`which` of two), not cleared. Asked again for a length no larger,
   * it returns a view from the same start: a list can be compacted into itself.
   */
  slots(level: number, which: 0 | 1, length: number): Int32Array {
    if (level >= KEPT_LEVELS) return new Int32Array(length);
    this.slotArrays[level] ??= [undefined, undefined];
    const pair = this.slotArrays[level];
    const kept = pair[which];
    if (kept && kept.length >= length) return kept.subarray(0, length);
    const array = new Int32Array(capacityFor(length));
    pair[which] = array;
    return array.subarray(0, length);
  }
}
