/**
 * One list of ids per slot (a bug's CCs, keywords, groups, dependencies, regressions or
 * duplicates), stored as the snapshot stores it: every id in one Int32Array and each slot's end
 * in another. As a JavaScript array per bug the same lists cost about 65 bytes for each list that
 * is not empty and 8 for each that is, 160 bytes a bug for the index's eight columns; stored
 * this way they cost 4 bytes a slot and 4 an id, and a cold instance reads them without making
 * a million arrays. A new slot's list is appended to those arrays; a slot written again keeps
 * its list as an array of its own, until the next snapshot folds it in.
 */

const NO_IDS: readonly number[] = Object.freeze([]);

export class IdLists {
  /** Slots 0 .. count - 1 hold values[ends[s - 1] .. ends[s]) (from 0 for slot 0); both arrays have room to grow. */
  private ends: Uint32Array;
  private values: Int32Array;
  private count: number;
  private used: number;
  /** 1 for a slot whose list is in `changed` rather than in the arrays above. */
  private own = new Uint8Array(0);
  private readonly changed = new Map<number, readonly number[]>();

  constructor(ends: Uint32Array = new Uint32Array(0), values: Int32Array = new Int32Array(0)) {
    if (ends.length > 0 && ends[ends.length - 1]! > values.length)
      throw new Error('Id lists: the ends run past the ids');
    this.ends = ends;
    this.values = values;
    this.count = ends.length;
    this.used = ends.length > 0 ? ends[ends.length - 1]! : 0;
  }

  /** Replaces the slot's list (a write), or gives the next slot its list. */
  set(slot: number, ids: readonly number[]): void {
    if (slot === this.count && this.own[slot] !== 1) {
      this.append(ids);
      return;
    }
    if (slot >= this.own.length) {
      const grown = new Uint8Array(Math.max(slot + 1, this.own.length * 2, 1024));
      grown.set(this.own);
      this.own = grown;
    }
    this.own[slot] = 1;
    this.changed.set(slot, ids.length === 0 ? NO_IDS : ids);
  }

  private append(ids: readonly number[]): void {
    if (this.count === this.ends.length) {
      const ends = new Uint32Array(Math.max(1024, this.ends.length * 2));
      ends.set(this.ends);
      this.ends = ends;
    }
    if (this.used + ids.length > this.values.length) {
      const values = new Int32Array(Math.max(1024, this.values.length * 2, this.used + ids.length));
      values.set(this.values.subarray(0, this.used));
      this.values = values;
    }
    for (const id of ids) this.values[this.used++] = id;
    this.ends[this.count++] = this.used;
  }

  private start(slot: number): number {
    return slot === 0 ? 0 : this.ends[slot - 1]!;
  }

  /** Slots at or past the snapshot's that were never set have no ids. */
  private inBase(slot: number): boolean {
    return this.own[slot] !== 1 && slot < this.count;
  }

  length(slot: number): number {
    if (this.inBase(slot)) return this.ends[slot]! - this.start(slot);
    return this.changed.get(slot)?.length ?? 0;
  }

  /** The slot's ids, as an array (made for a slot read from the snapshot; the hot loops use the methods below). */
  get(slot: number): readonly number[] {
    if (!this.inBase(slot)) return this.changed.get(slot) ?? NO_IDS;
    const from = this.start(slot);
    const to = this.ends[slot]!;
    return from === to ? NO_IDS : Array.from(this.values.subarray(from, to));
  }

  /** The slot's ids as an array of its own, which the caller may keep or change. */
  copyOf(slot: number): number[] {
    if (!this.inBase(slot)) return [...(this.changed.get(slot) ?? NO_IDS)];
    const from = this.start(slot);
    const to = this.ends[slot]!;
    // A loop, not Array.from over a subarray: a 1,000-bug page copies eight lists a bug.
    const copy = new Array<number>(to - from);
    for (let at = from; at < to; at++) copy[at - from] = this.values[at]!;
    return copy;
  }

  includes(slot: number, id: number): boolean {
    if (!this.inBase(slot)) return (this.changed.get(slot) ?? NO_IDS).includes(id);
    for (let at = this.start(slot), end = this.ends[slot]!; at < end; at++) if (this.values[at] === id) return true;
    return false;
  }

  some(slot: number, test: (id: number) => boolean): boolean {
    if (!this.inBase(slot)) return (this.changed.get(slot) ?? NO_IDS).some(test);
    for (let at = this.start(slot), end = this.ends[slot]!; at < end; at++) if (test(this.values[at]!)) return true;
    return false;
  }

  every(slot: number, test: (id: number) => boolean): boolean {
    return !this.some(slot, (id) => !test(id));
  }

  /** Whether `table[id]` is `wanted` for one of the slot's ids (a keyword or group criterion's table). */
  anyIn(slot: number, table: Uint8Array, wanted: number): boolean {
    if (!this.inBase(slot)) {
      for (const id of this.changed.get(slot) ?? NO_IDS) if (table[id] === wanted) return true;
      return false;
    }
    for (let at = this.start(slot), end = this.ends[slot]!; at < end; at++)
      if (table[this.values[at]!] === wanted) return true;
    return false;
  }

  /** The OR of `masks[id]` over the slot's ids. */
  maskOf(slot: number, masks: Uint32Array): number {
    let held = 0;
    if (!this.inBase(slot)) {
      for (const id of this.changed.get(slot) ?? NO_IDS) held |= masks[id] ?? 0;
      return held;
    }
    for (let at = this.start(slot), end = this.ends[slot]!; at < end; at++) held |= masks[this.values[at]!] ?? 0;
    return held;
  }

  /** The lists of slots 0 .. size - 1, as the snapshot stores them. */
  encode(size: number): { ends: Uint32Array; values: Int32Array } {
    const ends = new Uint32Array(size);
    let total = 0;
    for (let slot = 0; slot < size; slot++) ends[slot] = total += this.length(slot);
    const values = new Int32Array(total);
    let at = 0;
    for (let slot = 0; slot < size; slot++) {
      if (this.inBase(slot)) {
        values.set(this.values.subarray(this.start(slot), this.ends[slot]!), at);
        at += this.ends[slot]! - this.start(slot);
      } else for (const id of this.changed.get(slot) ?? NO_IDS) values[at++] = id;
    }
    return { ends, values };
  }

  /** Bytes held (the snapshot's arrays and the per-slot marks; the changed lists not counted). */
  byteSize(): number {
    return this.ends.byteLength + this.values.byteLength + this.own.byteLength;
  }
}
