/**
 * A column of the index that most bugs leave empty (alias, URL, whiteboard, see also, flags,
 * personal tags, custom fields, private attachment lists): only the bugs holding something are
 * kept, by slot. As arrays of one pointer per bug these cost a cold instance 8 MB each to allocate
 * and fill at a million bugs (about 0.35 s for the seven of them), and every full collection
 * marked them all.
 */
export class SparseColumn<T> {
  private readonly values = new Map<number, T>();
  /**
   * Values as a snapshot stored them, decoded one at a time when read (storedEntries): a cold
   * instance answers its first search without decoding 10 MB of flags. Values written since are
   * in `values`, which wins, empty ones included while the stored entries remain.
   */
  private stored: StoredEntries<T> | undefined;
  /** Stored entries decoded so far: past DECODE_ALL_AFTER, the rest are decoded at once. */
  private decoded = 0;

  /** `empty` is what a slot without a value reads as; values `isEmpty` holds for are not kept. */
  constructor(
    readonly empty: T,
    private readonly isEmpty: (value: T) => boolean,
  ) {}

  get(slot: number): T {
    const value = this.values.get(slot);
    if (value !== undefined) return value;
    if (!this.stored) return this.empty;
    const position = positionOf(this.stored.slots, slot);
    if (position < 0) return this.empty;
    const decoded = this.stored.valueAt(position);
    this.values.set(slot, decoded);
    if (++this.decoded > DECODE_ALL_AFTER) this.decodeAll();
    return decoded;
  }

  set(slot: number, value: T | null | undefined): void {
    const empty = value === null || value === undefined || this.isEmpty(value);
    if (!empty) this.values.set(slot, value);
    // Stored entries remain below: an emptied slot must hide its stored value.
    else if (this.stored) this.values.set(slot, this.empty);
    else this.values.delete(slot);
  }

  /** The slots below `size` that hold a value, in slot order, with it. */
  entries(size: number): Array<[number, T]> {
    this.decodeAll();
    const entries: Array<[number, T]> = [];
    for (const [slot, value] of this.values) if (slot < size) entries.push([slot, value]);
    return entries.sort((a, b) => a[0] - b[0]);
  }

  /** Takes a snapshot's values, to be decoded as they are read; replaces everything held. */
  adoptStored(stored: StoredEntries<T>): void {
    this.values.clear();
    this.stored = stored.slots.length > 0 ? stored : undefined;
    this.decoded = 0;
  }

  private decodeAll(): void {
    const stored = this.stored;
    if (!stored) return;
    this.stored = undefined;
    for (let position = 0; position < stored.slots.length; position++) {
      const slot = stored.slots[position]!;
      if (!this.values.has(slot)) this.values.set(slot, stored.valueAt(position));
    }
    for (const [slot, value] of this.values) if (this.isEmpty(value)) this.values.delete(slot);
  }
}

/** A snapshot's values of a sparse column: the slots holding one, ascending, and the value at each position. */
export interface StoredEntries<T> {
  slots: Int32Array;
  valueAt(position: number): T;
}

/**
 * After this many single decodes a column is decoded whole: a search testing every bug's flags
 * would otherwise search and decode them one by one on every run.
 */
const DECODE_ALL_AFTER = 20_000;

/** The position of `slot` in the ascending `slots`, or -1. */
function positionOf(slots: Int32Array, slot: number): number {
  let low = 0;
  let high = slots.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = slots[middle]!;
    if (found === slot) return middle;
    if (found < slot) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Empty text, list or object. */
export const emptyText = (value: string | null): boolean => !value;
export const emptyList = (value: readonly unknown[]): boolean => value.length === 0;
export const emptyRecord = (value: Record<string, unknown> | null): boolean =>
  value === null || Object.keys(value).length === 0;
