import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FramedBytes } from '../../shared/domain/search/snapshot/framedBytes.ts';

describe('bytes read as the frames they came in', () => {
  it('gives any span and copy exactly as one joined buffer would, empty frames included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 40 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        (frames, a, b) => {
          const joined = Buffer.concat(frames);
          const bytes = new FramedBytes(frames);
          expect(bytes.length).toBe(joined.length);
          const start = joined.length === 0 ? 0 : a % (joined.length + 1);
          const end = start + (joined.length === 0 ? 0 : b % (joined.length - start + 1));
          expect([...bytes.span(start, end)]).toEqual([...joined.subarray(start, end)]);
          const target = new Uint8Array(end - start + 3).fill(9);
          bytes.copyTo(start, end, target);
          expect([...target]).toEqual([...joined.subarray(start, end), 9, 9, 9]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('views a span inside one frame without copying, and refuses spans outside', () => {
    const first = Uint8Array.of(1, 2, 3, 4);
    const bytes = new FramedBytes([first, Uint8Array.of(5, 6)]);
    expect(bytes.span(1, 3).buffer).toBe(first.buffer);
    expect([...bytes.span(3, 5)]).toEqual([4, 5]);
    expect(() => bytes.span(4, 7)).toThrow(RangeError);
    expect(() => bytes.copyTo(0, 6, new Uint8Array(5))).toThrow(RangeError);
  });
});
