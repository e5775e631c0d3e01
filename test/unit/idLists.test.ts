import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdLists } from '../../shared/domain/search/index/idLists.ts';

/**
 * The index's id-list columns (CC, keywords, groups, relations) against the plain array per slot
 * they replace: whatever the snapshot held and however slots were added and rewritten after it,
 * every question gets the model's answer, and encoding gives the lists back.
 */

const ids = fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 5 });
const operation = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), ids }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), ids }),
);

function fromModel(model: number[][]): IdLists {
  const ends = new Uint32Array(model.length);
  let total = 0;
  model.forEach((list, slot) => {
    ends[slot] = total += list.length;
  });
  return new IdLists(ends, Int32Array.from(model.flat()));
}

describe('id lists by slot', () => {
  it('answer as an array per slot would, across snapshot, new slots and rewrites', () => {
    fc.assert(
      fc.property(fc.array(ids, { maxLength: 20 }), fc.array(operation, { maxLength: 40 }), (snapshot, operations) => {
        const model = snapshot.map((list) => [...list]);
        const lists = fromModel(model);
        for (const step of operations) {
          if (step.kind === 'add' || model.length === 0) {
            lists.set(model.length, step.ids);
            model.push([...step.ids]);
          } else {
            const slot = step.at % model.length;
            lists.set(slot, step.ids);
            model[slot] = [...step.ids];
          }
        }
        const table = new Uint8Array(41);
        table[3] = 1;
        table[17] = 1;
        const masks = Uint32Array.from({ length: 41 }, (_, id) => 1 << (id % 31));
        model.forEach((expected, slot) => {
          expect(lists.get(slot)).toEqual(expected);
          expect(lists.length(slot)).toBe(expected.length);
          expect(lists.includes(slot, 17)).toBe(expected.includes(17));
          expect(lists.some(slot, (id) => id > 30)).toBe(expected.some((id) => id > 30));
          expect(lists.every(slot, (id) => id % 2 === 0)).toBe(expected.every((id) => id % 2 === 0));
          expect(lists.anyIn(slot, table, 1)).toBe(expected.some((id) => table[id] === 1));
          expect(lists.maskOf(slot, masks)).toBe(expected.reduce((held, id) => held | masks[id]!, 0));
        });
        // Past the last slot there is nothing.
        expect(lists.get(model.length)).toEqual([]);
        const { ends, values } = lists.encode(model.length);
        const again = new IdLists(ends, values);
        model.forEach((expected, slot) => {
          expect(again.get(slot)).toEqual(expected);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses ends that run past the ids', () => {
    expect(() => new IdLists(Uint32Array.of(2, 5), Int32Array.of(1, 2, 3))).toThrow(/run past/);
  });
});
