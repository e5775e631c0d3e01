import { describe, expect, it } from 'vitest';
import { ChangeHistory } from '../../shared/domain/search/index/changeHistory.ts';
import type { IndexedChange } from '../../shared/domain/search/index/columns.ts';

const change = (field: string, at: number, who: number, removed: string, added: string, attachmentId?: number) =>
  attachmentId === undefined ? { field, at, who, removed, added } : { field, at, who, removed, added, attachmentId };

const resolved = change('bug_status', 1_000, 7, 'NEW', 'RESOLVED');
const reassigned = change('assigned_to', 2_000, 8, 'a@x.test', 'b@x.test');
const unreadableTime = change('priority', Number.NaN, 9, 'P3', 'P1');
const obsoleted = change('attachments.isobsolete', 3_000, 7, '0', '1', 42);

/** Every slot's changes, as a plain array of arrays (what the history must equal). */
const listAll = (history: ChangeHistory, slots: number) =>
  Array.from({ length: slots }, (_, slot) => history.list(slot));

/** A deterministic pseudo-random sequence (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('a bug history stored by column', () => {
  it('gives back exactly the changes appended, in order, with an attachment id only where one was given', () => {
    const history = new ChangeHistory();
    history.append(0, [resolved, obsoleted]);
    history.append(2, [unreadableTime]);
    history.append(0, [reassigned]);
    expect(history.list(0)).toStrictEqual([resolved, obsoleted, reassigned]);
    expect(history.list(0).map((each) => 'attachmentId' in each)).toEqual([false, true, false]);
    expect(history.list(1)).toEqual([]);
    expect(history.list(2)).toEqual([unreadableTime]);
    expect(Number.isNaN(history.list(2)[0].at)).toBe(true);
    expect([history.count(0), history.count(1), history.count(2), history.count(99)]).toEqual([3, 0, 1, 0]);
    expect(history.slots).toBe(3);
    expect(history.size).toBe(4);
  });

  it('stops at the first change that passes, reading base changes before appended ones', () => {
    const history = new ChangeHistory();
    history.append(0, [resolved, reassigned]);
    history.compact();
    history.append(0, [obsoleted]);
    const seen: string[] = [];
    const foundAssignee = history.some(0, (each) => {
      seen.push(each.field);
      return each.field === 'assigned_to';
    });
    expect(foundAssignee).toBe(true);
    expect(seen).toEqual(['bug_status', 'assigned_to']);

    seen.length = 0;
    const foundAttachment = history.some(0, (each) => {
      seen.push(each.field);
      return each.attachmentId === 42;
    });
    expect(foundAttachment).toBe(true);
    expect(seen).toEqual(['bug_status', 'assigned_to', 'attachments.isobsolete']);
    expect(history.some(0, (each) => each.who === 99)).toBe(false);
    expect(history.some(5, () => true)).toBe(false);
  });

  it('keeps every change through compact(), whatever mix of base and appended', () => {
    const history = new ChangeHistory();
    history.append(1, [resolved]);
    history.append(3, [reassigned]);
    history.compact();
    history.append(3, [obsoleted]);
    history.append(0, [unreadableTime]);
    history.append(6, [resolved]);
    const before = listAll(history, 8);
    history.compact();
    expect(listAll(history, 8)).toEqual(before);
    expect(before).toEqual([[unreadableTime], [resolved], [], [reassigned, obsoleted], [], [], [resolved], []]);
    expect(history.slots).toBe(7);
    history.compact();
    expect(listAll(history, 8)).toEqual(before);
  });

  it('encodes each distinct value once and decodes to the same history, which takes further changes', () => {
    const history = new ChangeHistory();
    history.append(0, [resolved, change('bug_status', 5_000, 7, 'RESOLVED', 'REOPENED')]);
    history.append(1, [change('bug_status', 6_000, 8, 'NEW', 'RESOLVED', 3)]);
    const encoded = history.encode(3);
    expect(Array.from(encoded.offsets)).toEqual([0, 2, 3, 3]);
    expect(encoded.fieldNames).toEqual(['bug_status']);
    expect(encoded.values).toEqual(['NEW', 'RESOLVED', 'REOPENED']);
    expect(Array.from(encoded.removed)).toEqual([0, 1, 0]);
    expect(Array.from(encoded.added)).toEqual([1, 2, 1]);
    expect(Array.from(encoded.attachment)).toEqual([0, 0, 3]);

    const decoded = ChangeHistory.decode(encoded);
    expect(listAll(decoded, 3)).toEqual(listAll(history, 3));
    decoded.append(2, [reassigned, change('bug_status', 7_000, 9, 'REOPENED', 'NEW')]);
    decoded.append(0, [unreadableTime]);
    const again = decoded.encode(4);
    expect(Array.from(again.offsets)).toEqual([0, 3, 4, 6, 6]);
    expect(again.values).toEqual(['NEW', 'RESOLVED', 'REOPENED', 'a@x.test', 'b@x.test', 'P3', 'P1']);
    expect(listAll(ChangeHistory.decode(again), 4)).toEqual([
      [resolved, change('bug_status', 5_000, 7, 'RESOLVED', 'REOPENED'), unreadableTime],
      [change('bug_status', 6_000, 8, 'NEW', 'RESOLVED', 3)],
      [reassigned, change('bug_status', 7_000, 9, 'REOPENED', 'NEW')],
      [],
    ]);
    // The first snapshot is not disturbed by what was appended after it.
    expect(Array.from(encoded.offsets)).toEqual([0, 2, 3, 3]);
    expect(encoded.values).toEqual(['NEW', 'RESOLVED', 'REOPENED']);
  });

  it('encodes only the slots asked for', () => {
    const history = new ChangeHistory();
    history.append(0, [resolved]);
    history.append(2, [reassigned]);
    const encoded = history.encode(1);
    expect(Array.from(encoded.offsets)).toEqual([0, 1]);
    expect(encoded.field.length).toBe(1);
    expect(listAll(ChangeHistory.decode(encoded), 3)).toEqual([[resolved], [], []]);
    expect(Array.from(new ChangeHistory().encode(2).offsets)).toEqual([0, 0, 0]);
  });

  it('refuses a snapshot whose columns do not match its offsets', () => {
    const encoded = new ChangeHistory().encode(0);
    expect(() => ChangeHistory.decode({ ...encoded, offsets: new Uint32Array([0, 1]) })).toThrow(RangeError);
  });

  it('counts the bytes it holds', () => {
    const history = new ChangeHistory();
    const empty = history.byteSize();
    history.append(0, [resolved]);
    history.compact();
    // Two slot offsets, one row of 26 bytes, and the dictionaries.
    expect(history.byteSize()).toBeGreaterThan(empty + 26);
    expect(history.byteSize()).toBeLessThan(1_000);
  });

  it('matches a plain array-of-arrays model under random appends, compactions and round trips', () => {
    const next = random(20_250_601);
    const pick = <T>(values: readonly T[]) => values[Math.floor(next() * values.length)];
    const fields = ['bug_status', 'resolution', 'assigned_to', 'cc', 'short_desc', 'attachments.ispatch'];
    const values = ['', 'NEW', 'ASSIGNED', 'RESOLVED', 'FIXED', 'u1@x.test', 'u2@x.test', 'Ünïcode ✓'];
    const randomChange = (): IndexedChange =>
      change(
        pick(fields),
        next() < 0.05 ? Number.NaN : Math.floor(next() * 2e12),
        Math.floor(next() * 3000) - 1,
        next() < 0.2 ? `free text ${Math.floor(next() * 1e6)}` : pick(values),
        pick(values),
        next() < 0.2 ? 1 + Math.floor(next() * 1e6) : undefined,
      );
    const model: IndexedChange[][] = [];
    let history = new ChangeHistory();
    // Enough changes to fill several overflow chunks between compactions.
    for (let step = 0; step < 60_000; step++) {
      const roll = next();
      if (roll < 0.0005) history.compact();
      else if (roll < 0.001) {
        const size = model.length + Math.floor(next() * 3);
        history = ChangeHistory.decode(history.encode(size));
      } else {
        const slot = Math.floor(next() * 3000);
        const added = Array.from({ length: 1 + Math.floor(next() * 3) }, randomChange);
        history.append(slot, added);
        while (model.length <= slot) model.push([]);
        model[slot].push(...added);
      }
    }
    expect(history.size).toBe(model.reduce((sum, changes) => sum + changes.length, 0));
    expect(listAll(history, model.length + 1)).toStrictEqual([...model, []]);
    for (let slot = 0; slot < model.length; slot++) expect(history.count(slot)).toBe(model[slot].length);
    const who = 1234;
    for (let slot = 0; slot < model.length; slot++)
      expect(history.some(slot, (each) => each.who === who)).toBe(model[slot].some((each) => each.who === who));
    history.compact();
    expect(listAll(history, model.length)).toStrictEqual(model);
  });
});
