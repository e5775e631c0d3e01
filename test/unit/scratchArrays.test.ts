import { describe, expect, it } from 'vitest';
import { ScratchArrays } from '../../shared/domain/search/evaluation/scratchArrays.ts';

describe('scratch arrays for search evaluation', () => {
  it('hands each level zeroed truths of the length asked, reusing its memory', () => {
    const scratch = new ScratchArrays();
    const first = scratch.truths(0, 5_000);
    first.fill(1);
    const other = scratch.truths(1, 5_000);
    expect(other.every((value) => value === 0)).toBe(true);
    expect(first.every((value) => value === 1)).toBe(true);
    const again = scratch.truths(0, 3_000);
    expect(again.length).toBe(3_000);
    expect(again.every((value) => value === 0)).toBe(true);
    expect(again.buffer).toBe(first.buffer);
    // Longer than it held: a new array.
    expect(scratch.truths(0, 200_000).buffer).not.toBe(first.buffer);
  });

  it('gives slot lists from the same start, so a list can be compacted into itself', () => {
    const scratch = new ScratchArrays();
    const live = scratch.slots(2, 0, 10);
    live.set([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const positions = scratch.slots(2, 1, 10);
    expect(positions.buffer).not.toBe(live.buffer);
    const shorter = scratch.slots(2, 0, 4);
    expect(Array.from(shorter)).toEqual([1, 2, 3, 4]);
    expect(shorter.buffer).toBe(live.buffer);
  });

  it('keeps nothing for levels deeper than it keeps', () => {
    const scratch = new ScratchArrays();
    const deep = scratch.truths(40, 100);
    deep.fill(2);
    expect(scratch.truths(40, 100).buffer).not.toBe(deep.buffer);
    expect(scratch.slots(40, 0, 100).buffer).not.toBe(scratch.slots(40, 0, 100).buffer);
  });
});
