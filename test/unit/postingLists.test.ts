import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PostingLists } from '../../shared/domain/search/index/postingLists.ts';

const slotsOf = <K extends string | number>(lists: PostingLists<K>, key: K) => {
  const slots: number[] = [];
  lists.forEach(key, (slot) => slots.push(slot));
  return slots;
};

/** Every list as sorted, deduplicated slots, keyed in sorted key order. */
const contents = <K extends string | number>(lists: PostingLists<K>) =>
  Object.fromEntries(
    [...lists.keys()].sort().map((key) => [key, [...new Set(slotsOf(lists, key))].sort((a, b) => a - b)]),
  );

const decodedLists = <K extends string | number>(encoded: ReturnType<PostingLists<K>['encode']>) =>
  Object.fromEntries(
    encoded.keys.map((key, at) => {
      const lists = PostingLists.decode({
        keys: [key],
        bytes: encoded.bytes.slice(encoded.offsets[at], encoded.offsets[at + 1]),
        offsets: Uint32Array.of(0, encoded.offsets[at + 1]! - encoded.offsets[at]!),
        counts: Uint32Array.of(encoded.counts[at]!),
      });
      return [key, slotsOf(lists, key)];
    }),
  );

describe('posting lists', () => {
  it('answers add, forEach, count, has, keys and size exactly', () => {
    const lists = new PostingLists<string>();
    lists.add('crash', 0);
    lists.add('crash', 0);
    lists.add('crash', 3);
    lists.add('toolbar', 3);
    lists.add('crash', 7);
    expect(slotsOf(lists, 'crash')).toEqual([0, 3, 7]);
    expect(slotsOf(lists, 'toolbar')).toEqual([3]);
    expect(slotsOf(lists, 'missing')).toEqual([]);
    expect(lists.count('crash')).toBe(3);
    expect(lists.count('missing')).toBe(0);
    expect(lists.has('toolbar')).toBe(true);
    expect(lists.has('missing')).toBe(false);
    expect([...lists.keys()]).toEqual(['crash', 'toolbar']);
    expect(lists.size).toBe(2);
    lists.compact();
    expect(slotsOf(lists, 'crash')).toEqual([0, 3, 7]);
    lists.add('crash', 7);
    lists.add('crash', 9);
    expect(slotsOf(lists, 'crash')).toEqual([0, 3, 7, 9]);
    expect(lists.count('crash')).toBe(4);
    expect(() => lists.add('crash', -1)).toThrow(RangeError);
    expect(() => lists.add('crash', 1.5)).toThrow(RangeError);
  });

  it('tolerates slots out of order and repeated, and encodes them sorted and once', () => {
    const lists = new PostingLists<number>();
    for (const slot of [5, 2, 5, 9, 2, 2, 0]) lists.add(42, slot);
    expect(slotsOf(lists, 42)).toEqual([5, 2, 5, 9, 2, 0]);
    expect(lists.count(42)).toBe(6);
    const encoded = lists.encode();
    expect(encoded.keys).toEqual([42]);
    expect([...encoded.counts]).toEqual([4]);
    expect([...encoded.offsets]).toEqual([0, 4]);
    // 0, then the gaps 2, 3 and 4.
    expect([...encoded.bytes]).toEqual([0, 2, 3, 4]);
    expect(slotsOf(lists, 42)).toEqual([0, 2, 5, 9]);
    // After a compaction too, an older slot is appended again rather than searched for.
    lists.add(42, 5);
    expect(slotsOf(lists, 42)).toEqual([0, 2, 5, 9, 5]);
    expect(lists.encode().counts[0]).toBe(4);
  });

  it('removes a slot from every list, and drops the lists it empties', () => {
    const lists = new PostingLists<string>();
    lists.add('a', 1);
    lists.add('b', 1);
    lists.add('a', 2);
    lists.compact();
    lists.add('c', 1);
    lists.add('a', 3);
    lists.add('a', 1);
    lists.removeSlot(1);
    expect(contents(lists)).toEqual({ a: [2, 3] });
    expect(lists.has('b')).toBe(false);
    expect(lists.has('c')).toBe(false);
    expect(lists.size).toBe(1);
    expect(lists.encode().keys).toEqual(['a']);
    lists.removeSlot(99);
    lists.add('b', 4);
    expect(contents(lists)).toEqual({ a: [2, 3], b: [4] });
    const encoded = lists.encode();
    expect(encoded.keys).toEqual(['a', 'b']);
    expect(decodedLists(encoded)).toEqual({ a: [2, 3], b: [4] });
  });

  it('decodes what it encodes, and keeps working on the decoded store', () => {
    const lists = new PostingLists<string | number>();
    for (let slot = 0; slot < 50; slot++) {
      lists.add('every', slot);
      if (slot % 7 === 0) lists.add(7, slot);
      if (slot % 10 === 3) lists.add('three', slot);
    }
    const encoded = lists.encode();
    const decoded = PostingLists.decode(encoded);
    expect(contents(decoded)).toEqual(contents(lists));
    expect(decoded.encode()).toEqual(encoded);
    expect(decoded.count(7)).toBe(8);

    decoded.add(7, 49);
    decoded.add(7, 56);
    decoded.add('three', 1);
    decoded.add('new', 60);
    // A decoded list's last slot is not known without decoding it, so 49 is posted again.
    expect(slotsOf(decoded, 7)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 49, 56]);
    decoded.compact();
    decoded.add(7, 56);
    expect(slotsOf(decoded, 7)).toEqual([0, 7, 14, 21, 28, 35, 42, 49, 56]);
    const again = decoded.encode();
    expect(decodedLists(again)).toEqual({
      every: Array.from({ length: 50 }, (_, slot) => slot),
      7: [0, 7, 14, 21, 28, 35, 42, 49, 56],
      three: [1, 3, 13, 23, 33, 43],
      new: [60],
    });
    // The decoded store left the arrays it was given as they were.
    expect(contents(PostingLists.decode(encoded))).toEqual(contents(lists));
  });

  it('codes large slots and gaps in several bytes', () => {
    const lists = new PostingLists<string>();
    const slots = [0, 127, 128, 16_383, 16_384, 2 ** 21 - 1, 2 ** 21 + 5, 2 ** 28 + 1, 2 ** 31 - 1];
    for (const slot of slots) lists.add('wide', slot);
    lists.add('far', 2 ** 30);
    const encoded = lists.encode();
    expect(decodedLists(encoded)).toEqual({ wide: slots, far: [2 ** 30] });
    // Gaps 127, 1, 16255, 1, 2080767, 6, 266338300, 1879048190 after the first 0; then 2^30 alone.
    expect(encoded.offsets[1]! - encoded.offsets[0]!).toBe(1 + 1 + 1 + 2 + 1 + 3 + 1 + 4 + 5);
    expect(encoded.offsets[2]! - encoded.offsets[1]!).toBe(5);
    expect(slotsOf(PostingLists.decode(encoded), 'wide')).toEqual(slots);
  });

  it('folds its tails by itself during a large build, keeping every posting', () => {
    const lists = new PostingLists<number>();
    const slots = 800_000;
    for (let slot = 0; slot < slots; slot++) {
      lists.add(0, slot);
      if (slot % 2 === 0) lists.add(2, slot);
    }
    const { base, tails } = lists.postings();
    expect(base + tails).toBe(1_200_000);
    expect(base).toBeGreaterThan(0);
    expect(tails).toBeLessThan(1 << 20);
    lists.compact();
    expect(lists.postings()).toEqual({ base: 1_200_000, tails: 0 });
    let expected = 0;
    let wrong = 0;
    lists.forEach(2, (slot) => {
      if (slot !== expected) wrong++;
      expected += 2;
    });
    expect({ wrong, expected }).toEqual({ wrong: 0, expected: slots });
    // Gaps of 1 and 2: a byte each.
    expect(lists.encode().bytes.length).toBe(1_200_000);
  });

  it('refuses an encoding whose arrays do not match its keys', () => {
    const bytes = Uint8Array.of(1);
    expect(() =>
      PostingLists.decode({ keys: ['a', 'b'], bytes, offsets: Uint32Array.of(0, 1), counts: Uint32Array.of(1) }),
    ).toThrow();
    expect(() =>
      PostingLists.decode({ keys: ['a', 'a'], bytes, offsets: Uint32Array.of(0, 1, 1), counts: Uint32Array.of(1, 0) }),
    ).toThrow();
  });

  it('agrees with a map of sets over random adds, removals, compactions and snapshots', () => {
    let seed = 12345;
    const random = (below: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % below;
    };
    let lists = new PostingLists<string | number>();
    const model = new Map<string | number, Set<number>>();
    const keys = ['a', 'b', 'c', 'd', 1, 2, 3, 'é€'];
    let nextSlot = 0;
    for (let step = 0; step < 5_000; step++) {
      const action = random(100);
      if (action < 70) {
        // Mostly new slots in order, sometimes an older one, sometimes a far one.
        const slot = random(10) < 7 ? nextSlot++ : random(4) === 0 ? random(2 ** 30) : random(nextSlot + 1);
        for (let times = random(3) + 1; times > 0; times--) {
          const key = keys[random(keys.length)]!;
          lists.add(key, slot);
          if (!model.has(key)) model.set(key, new Set());
          model.get(key)!.add(slot);
        }
      } else if (action < 80) {
        const slot = random(nextSlot + 1);
        lists.removeSlot(slot);
        for (const [key, slots] of model) {
          slots.delete(slot);
          if (slots.size === 0) model.delete(key);
        }
      } else if (action < 90) {
        lists.compact();
      } else {
        lists = PostingLists.decode(lists.encode());
      }
      if (step % 50 === 0 || step > 4_990) {
        const expected = Object.fromEntries(
          [...model.keys()].sort().map((key) => [key, [...model.get(key)!].sort((a, b) => a - b)]),
        );
        expect(contents(lists), `step ${step}`).toEqual(expected);
        expect(lists.size).toBe(model.size);
        for (const key of keys) {
          expect(lists.has(key)).toBe(model.has(key));
          expect(lists.count(key)).toBeGreaterThanOrEqual(model.get(key)?.size ?? 0);
        }
        expect(decodedLists(lists.encode())).toEqual(expected);
      }
    }
  });
});

describe('walking a posting list a range of slots at a time', () => {
  it('visits exactly the postings forEach visits, each range in its turn, tails included', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: 0, max: 300 })), { maxLength: 200 }),
        fc.integer({ min: 0, max: 200 }),
        fc.array(fc.integer({ min: 0, max: 320 }), { maxLength: 8 }),
        (postings, compactAfter, ends) => {
          const lists = new PostingLists<string>();
          // Ascending adds go to the base when compacted; the ones after stay in tails, in any order.
          const sorted = [...postings].sort((x, y) => x[1] - y[1]);
          for (const [key, slot] of sorted.slice(0, compactAfter)) lists.add(key, slot);
          lists.compact();
          for (const [key, slot] of postings.slice(compactAfter)) lists.add(key, slot);
          for (const key of ['a', 'b', 'c', 'missing']) {
            const walk = lists.walk(key);
            const visited: number[] = [];
            let previous = 0;
            for (const end of [...ends].sort((x, y) => x - y).concat(400)) {
              const before = visited.length;
              walk.to(end, (slot) => visited.push(slot));
              // Each call visits only the slots of its own range.
              for (const slot of visited.slice(before)) {
                expect(slot).toBeGreaterThanOrEqual(previous);
                expect(slot).toBeLessThan(end);
              }
              previous = Math.max(previous, end);
            }
            expect(
              visited.sort((x, y) => x - y),
              key,
            ).toEqual(slotsOf(lists, key).sort((x, y) => x - y));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
