/**
 * Every bug's field history for the search index (changedbefore/after/from/to/by, changedrange),
 * stored by column instead of as one object per change: at ten changes a bug, a million bugs' worth
 * of objects alone would not fit in a gigabyte.
 *
 * The base is compressed sparse rows: slot s's changes are rows offsets[s] to offsets[s + 1] - 1 of
 * the columns. Field names and values (statuses, logins, free text) are codes into dictionaries, so a
 * status that a million changes mention is stored once. Once built, the base is never written to:
 * changes arriving later go to an overflow read after it, and compact() builds a new base from both.
 * A write therefore costs no rebuild, and an encoded snapshot can share the base's arrays.
 */
import type { IndexedChange } from './columns.ts';

/** The snapshot form: the base's columns and dictionaries as they are. */
export interface EncodedChangeHistory {
  /** slots + 1 entries: slot s's changes are rows offsets[s] to offsets[s + 1] - 1. */
  offsets: Uint32Array;
  /** Codes into fieldNames. */
  field: Uint16Array;
  /** Milliseconds; NaN for an unreadable time. */
  at: Float64Array;
  who: Int32Array;
  /** Codes into values. */
  removed: Uint32Array;
  added: Uint32Array;
  /** 0 for a change about no attachment (attachment ids are positive). */
  attachment: Int32Array;
  fieldNames: string[];
  values: string[];
}

// Overflow is held in fixed-size chunks rather than arrays that double: a bulk build of millions
// of changes never copies what it already holds, and never holds twice the room it needs.
const CHUNK_BITS = 13;
const CHUNK_SIZE = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_SIZE - 1;
const MAX_FIELDS = 0x10000;
const MIN_SLOT_ROOM = 1024;

/** Rough V8 costs, for byteSize(): an array element, a string's header, a Map entry with its share of the table. */
const POINTER_BYTES = 8;
const STRING_HEADER_BYTES = 16;
const MAP_ENTRY_BYTES = 40;
const WIDE_CHARACTER = /[^\u0000-\u00ff]/;

/** Appended changes, in the order of their position; each slot's are linked by `next`. */
class OverflowChunk {
  readonly field = new Uint16Array(CHUNK_SIZE);
  readonly at = new Float64Array(CHUNK_SIZE);
  readonly who = new Int32Array(CHUNK_SIZE);
  readonly removed = new Uint32Array(CHUNK_SIZE);
  readonly added = new Uint32Array(CHUNK_SIZE);
  readonly attachment = new Int32Array(CHUNK_SIZE);
  /** Position + 1 of the slot's next appended change; 0 after its last. */
  readonly next = new Uint32Array(CHUNK_SIZE);

  static readonly BYTES = CHUNK_SIZE * (2 + 8 + 4 + 4 + 4 + 4 + 4);
}

const emptyBase = (): EncodedChangeHistory => ({
  offsets: new Uint32Array(1),
  field: new Uint16Array(0),
  at: new Float64Array(0),
  who: new Int32Array(0),
  removed: new Uint32Array(0),
  added: new Uint32Array(0),
  attachment: new Int32Array(0),
  fieldNames: [],
  values: [],
});

function growSlots(array: Uint32Array, slot: number): Uint32Array {
  if (slot < array.length) return array;
  const next = new Uint32Array(Math.max(slot + 1, array.length * 2, MIN_SLOT_ROOM));
  next.set(array);
  return next;
}

function stringBytes(values: readonly string[]): number {
  let bytes = 0;
  for (const value of values)
    bytes += POINTER_BYTES + STRING_HEADER_BYTES + value.length * (WIDE_CHARACTER.test(value) ? 2 : 1);
  return bytes;
}

export class ChangeHistory {
  private offsets: Uint32Array;
  private field: Uint16Array;
  private at: Float64Array;
  private who: Int32Array;
  private removed: Uint32Array;
  private added: Uint32Array;
  private attachment: Int32Array;
  private fieldNames: string[];
  private values: string[];
  /**
   * The dictionaries' lookups, needed only to append: built on the first append, so loading a
   * snapshot does not pay for them. The dictionaries are copied then too, so an adopted snapshot's
   * arrays are never written to.
   */
  private fieldCodes?: Map<string, number>;
  private valueCodes?: Map<string, number>;

  private chunks: OverflowChunk[] = [];
  private overflowLength = 0;
  /** Per slot, position + 1 of its first and last appended change; 0 when it has none. */
  private heads: Uint32Array = new Uint32Array(0);
  private tails: Uint32Array = new Uint32Array(0);
  private slotsHeld: number;

  /** Handed to some()'s test for every change: its fields are overwritten for the next one. */
  private readonly view: IndexedChange = { field: '', at: 0, who: 0, removed: '', added: '', attachmentId: undefined };

  /** Adopts `base` (not copied, and never written to); an empty history without it. */
  constructor(base: EncodedChangeHistory = emptyBase()) {
    const rows = base.offsets.length > 0 ? base.offsets[base.offsets.length - 1] : -1;
    const columns = [base.field, base.at, base.who, base.removed, base.added, base.attachment];
    if (base.offsets[0] !== 0 || columns.some((column) => column.length !== rows))
      throw new RangeError('change history columns do not match their offsets');
    this.offsets = base.offsets;
    this.field = base.field;
    this.at = base.at;
    this.who = base.who;
    this.removed = base.removed;
    this.added = base.added;
    this.attachment = base.attachment;
    this.fieldNames = base.fieldNames;
    this.values = base.values;
    this.slotsHeld = base.offsets.length - 1;
  }

  static decode(encoded: EncodedChangeHistory): ChangeHistory {
    return new ChangeHistory(encoded);
  }

  /** Slots covered: one past the highest slot that has a change, or the base's size if larger. */
  get slots(): number {
    return this.slotsHeld;
  }

  /** Changes held, in the base and appended. */
  get size(): number {
    return this.offsets[this.offsets.length - 1] + this.overflowLength;
  }

  /** Adds changes to the end of the slot's history. */
  append(slot: number, changes: readonly IndexedChange[]): void {
    if (!Number.isInteger(slot) || slot < 0) throw new RangeError(`not a slot: ${slot}`);
    if (changes.length === 0) return;
    this.heads = growSlots(this.heads, slot);
    this.tails = growSlots(this.tails, slot);
    for (const change of changes) {
      const position = this.overflowLength++;
      if (position >>> CHUNK_BITS === this.chunks.length) this.chunks.push(new OverflowChunk());
      const chunk = this.chunks[position >>> CHUNK_BITS];
      const at = position & CHUNK_MASK;
      chunk.field[at] = this.fieldCode(change.field);
      chunk.at[at] = change.at;
      chunk.who[at] = change.who;
      chunk.removed[at] = this.valueCode(change.removed);
      chunk.added[at] = this.valueCode(change.added);
      chunk.attachment[at] = change.attachmentId ?? 0;
      const tail = this.tails[slot];
      if (tail === 0) this.heads[slot] = position + 1;
      else this.chunks[(tail - 1) >>> CHUNK_BITS].next[(tail - 1) & CHUNK_MASK] = position + 1;
      this.tails[slot] = position + 1;
    }
    if (slot >= this.slotsHeld) this.slotsHeld = slot + 1;
  }

  /**
   * Whether one of the slot's changes passes `test`, trying them in order (base, then appended) and
   * stopping at the first that does. `test` is handed one reused object, rewritten for each change
   * (so a search over a million bugs allocates nothing): it must not keep it, nor call some() on
   * this history itself. Its `attachmentId` is undefined for a change about no attachment.
   */
  some(slot: number, test: (change: IndexedChange) => boolean): boolean {
    const view = this.view;
    const { offsets, fieldNames, values } = this;
    if (slot < offsets.length - 1) {
      const { field, at, who, removed, added, attachment } = this;
      const end = offsets[slot + 1];
      for (let row = offsets[slot]; row < end; row++) {
        view.field = fieldNames[field[row]];
        view.at = at[row];
        view.who = who[row];
        view.removed = values[removed[row]];
        view.added = values[added[row]];
        view.attachmentId = attachment[row] || undefined;
        if (test(view)) return true;
      }
    }
    let next = slot < this.heads.length ? this.heads[slot] : 0;
    while (next !== 0) {
      const chunk = this.chunks[(next - 1) >>> CHUNK_BITS];
      const row = (next - 1) & CHUNK_MASK;
      view.field = fieldNames[chunk.field[row]];
      view.at = chunk.at[row];
      view.who = chunk.who[row];
      view.removed = values[chunk.removed[row]];
      view.added = values[chunk.added[row]];
      view.attachmentId = chunk.attachment[row] || undefined;
      if (test(view)) return true;
      next = chunk.next[row];
    }
    return false;
  }

  count(slot: number): number {
    let count = slot < this.offsets.length - 1 ? this.offsets[slot + 1] - this.offsets[slot] : 0;
    let next = slot < this.heads.length ? this.heads[slot] : 0;
    while (next !== 0) {
      count++;
      next = this.chunks[(next - 1) >>> CHUNK_BITS].next[(next - 1) & CHUNK_MASK];
    }
    return count;
  }

  /** The slot's changes as new objects, `attachmentId` only on those that name one (for tests and debugging). */
  list(slot: number): IndexedChange[] {
    const changes: IndexedChange[] = [];
    this.some(slot, ({ field, at, who, removed, added, attachmentId }) => {
      changes.push(
        attachmentId === undefined
          ? { field, at, who, removed, added }
          : { field, at, who, removed, added, attachmentId },
      );
      return false;
    });
    return changes;
  }

  /** Folds the appended changes into a new base, each slot's after its base ones, in the order appended. */
  compact(): void {
    if (this.overflowLength === 0) return;
    const slots = this.slotsHeld;
    const old = this.encodeBase();
    const baseSlots = old.offsets.length - 1;
    const total = old.offsets[baseSlots] + this.overflowLength;
    const offsets = new Uint32Array(slots + 1);
    const field = new Uint16Array(total);
    const at = new Float64Array(total);
    const who = new Int32Array(total);
    const removed = new Uint32Array(total);
    const added = new Uint32Array(total);
    const attachment = new Int32Array(total);
    let written = 0;
    // Base rows of slots without appended changes are copied a run of slots at a time.
    let runStart = 0;
    const copyBaseUntil = (slot: number) => {
      const from = old.offsets[Math.min(runStart, baseSlots)];
      const to = old.offsets[Math.min(slot, baseSlots)];
      if (to > from) {
        field.set(old.field.subarray(from, to), written);
        at.set(old.at.subarray(from, to), written);
        who.set(old.who.subarray(from, to), written);
        removed.set(old.removed.subarray(from, to), written);
        added.set(old.added.subarray(from, to), written);
        attachment.set(old.attachment.subarray(from, to), written);
        written += to - from;
      }
      runStart = slot;
    };
    const heads = this.heads;
    for (let slot = 0; slot < slots; slot++) {
      let next = slot < heads.length ? heads[slot] : 0;
      if (next === 0) {
        offsets[slot + 1] = offsets[slot] + (slot < baseSlots ? old.offsets[slot + 1] - old.offsets[slot] : 0);
        continue;
      }
      copyBaseUntil(slot + 1);
      while (next !== 0) {
        const chunk = this.chunks[(next - 1) >>> CHUNK_BITS];
        const row = (next - 1) & CHUNK_MASK;
        field[written] = chunk.field[row];
        at[written] = chunk.at[row];
        who[written] = chunk.who[row];
        removed[written] = chunk.removed[row];
        added[written] = chunk.added[row];
        attachment[written] = chunk.attachment[row];
        written++;
        next = chunk.next[row];
      }
      offsets[slot + 1] = written;
    }
    copyBaseUntil(slots);
    this.offsets = offsets;
    this.field = field;
    this.at = at;
    this.who = who;
    this.removed = removed;
    this.added = added;
    this.attachment = attachment;
    this.chunks = [];
    this.overflowLength = 0;
    this.heads = new Uint32Array(0);
    this.tails = new Uint32Array(0);
  }

  /**
   * The snapshot form of slots 0 to size - 1 (appended changes folded in first). The typed arrays
   * are views of the base, which is never written to, so they stay valid while the history changes.
   */
  encode(size: number = this.slotsHeld): EncodedChangeHistory {
    this.compact();
    const base = this.encodeBase();
    const baseSlots = base.offsets.length - 1;
    let offsets: Uint32Array;
    if (size <= baseSlots) offsets = base.offsets.subarray(0, size + 1);
    else {
      // Slots past the last one with changes have none.
      offsets = new Uint32Array(size + 1);
      offsets.set(base.offsets);
      offsets.fill(base.offsets[baseSlots], baseSlots + 1);
    }
    const rows = offsets[offsets.length - 1];
    return {
      offsets,
      field: base.field.subarray(0, rows),
      at: base.at.subarray(0, rows),
      who: base.who.subarray(0, rows),
      removed: base.removed.subarray(0, rows),
      added: base.added.subarray(0, rows),
      attachment: base.attachment.subarray(0, rows),
      // Copies: appends add to the dictionaries.
      fieldNames: this.fieldNames.slice(),
      values: this.values.slice(),
    };
  }

  /** Approximate bytes held: the columns, the overflow, the dictionaries' strings and lookups. */
  byteSize(): number {
    const base = this.encodeBase();
    let bytes = [base.offsets, base.field, base.at, base.who, base.removed, base.added, base.attachment].reduce(
      (sum, column) => sum + column.byteLength,
      0,
    );
    bytes += this.chunks.length * OverflowChunk.BYTES + this.heads.byteLength + this.tails.byteLength;
    bytes += stringBytes(this.fieldNames) + stringBytes(this.values);
    bytes += ((this.fieldCodes?.size ?? 0) + (this.valueCodes?.size ?? 0)) * MAP_ENTRY_BYTES;
    return bytes;
  }

  private encodeBase(): EncodedChangeHistory {
    const { offsets, field, at, who, removed, added, attachment, fieldNames, values } = this;
    return { offsets, field, at, who, removed, added, attachment, fieldNames, values };
  }

  private fieldCode(name: string): number {
    if (!this.fieldCodes) {
      this.fieldNames = this.fieldNames.slice();
      this.fieldCodes = new Map();
      for (let code = this.fieldNames.length - 1; code >= 0; code--) this.fieldCodes.set(this.fieldNames[code], code);
    }
    let code = this.fieldCodes.get(name);
    if (code === undefined) {
      if (this.fieldNames.length === MAX_FIELDS) throw new RangeError('too many history field names');
      code = this.fieldNames.push(name) - 1;
      this.fieldCodes.set(name, code);
    }
    return code;
  }

  private valueCode(value: string): number {
    if (!this.valueCodes) {
      this.values = this.values.slice();
      this.valueCodes = new Map();
      // The first spelling wins should a snapshot's dictionary hold a value twice.
      for (let code = this.values.length - 1; code >= 0; code--) this.valueCodes.set(this.values[code], code);
    }
    let code = this.valueCodes.get(value);
    if (code === undefined) {
      code = this.values.push(value) - 1;
      this.valueCodes.set(value, code);
    }
    return code;
  }
}
