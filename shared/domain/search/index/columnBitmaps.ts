/**
 * Bitmaps of slots by value, for the columns of few distinct values that nearly every search
 * names (product, component, status, resolution, priority...): one bit per bug for each value, so
 * "open bugs of product X" is a few words ANDed and ORed per 32 bugs instead of a table lookup per
 * bug, and count_only is a population count. At a million bugs a value costs 122 KiB; a column
 * past MAX_VALUES distinct values gets none (criteria on it are tested bug by bug, as before).
 *
 * They are an index over the columns, built on first use and brought up to date from the
 * index's journal of changed slots before each use (as kept results are, leafTables.ts), so they
 * answer exactly as the columns do.
 */

/** The most distinct values a column gets bitmaps for (at a million bugs, 31 MiB). */
export const MAX_VALUES = 256;

export class ColumnBitmaps {
  private readonly byValue = new Map<number, Uint32Array>();
  /** The index version the bitmaps were last brought up to. */
  version = -1;
  private words = 0;

  /** From the column's first `size` values; null past MAX_VALUES distinct values. */
  static build(values: ArrayLike<number>, size: number, version: number): ColumnBitmaps | null {
    const built = new ColumnBitmaps();
    built.words = wordsFor(size);
    for (let slot = 0; slot < size; slot++) {
      if (!built.set(slot, values[slot]!)) return null;
    }
    built.version = version;
    return built;
  }

  /** The bitmap of slots holding `value` (all clear for a value no slot holds); do not change it. */
  of(value: number): Uint32Array {
    return this.byValue.get(value) ?? new Uint32Array(this.words);
  }

  /** Every value some slot holds (or held: a bitmap may have emptied). */
  values(): IterableIterator<number> {
    return this.byValue.keys();
  }

  /** Moves the changed slots to their current values, after the column grew to `size`; false past MAX_VALUES. */
  update(values: ArrayLike<number>, size: number, changed: readonly number[], version: number): boolean {
    if (wordsFor(size) > this.words) this.grow(wordsFor(size));
    for (const slot of changed) {
      if (slot >= size) continue;
      const word = slot >>> 5;
      const bit = 1 << (slot & 31);
      for (const bitmap of this.byValue.values()) bitmap[word] = bitmap[word]! & ~bit;
      if (!this.set(slot, values[slot]!)) return false;
    }
    this.version = version;
    return true;
  }

  private set(slot: number, value: number): boolean {
    let bitmap = this.byValue.get(value);
    if (!bitmap) {
      if (this.byValue.size >= MAX_VALUES) return false;
      bitmap = new Uint32Array(this.words);
      this.byValue.set(value, bitmap);
    }
    bitmap[slot >>> 5] = bitmap[slot >>> 5]! | (1 << (slot & 31));
    return true;
  }

  private grow(words: number): void {
    // With room, as the index's columns have: each new bug would otherwise copy every bitmap.
    const room = words + (words >> 3) + 32;
    for (const [value, bitmap] of this.byValue) {
      const grown = new Uint32Array(room);
      grown.set(bitmap);
      this.byValue.set(value, grown);
    }
    this.words = room;
  }
}

export const wordsFor = (size: number): number => (size + 31) >>> 5;

/** A bitmap of `size` slots, all set or all clear. */
export function filledBitmap(size: number, set: boolean): Uint32Array {
  const bitmap = new Uint32Array(wordsFor(size));
  if (set) {
    bitmap.fill(0xffffffff);
    clearPast(bitmap, size);
  }
  return bitmap;
}

/** Clears the bits of slots at or past `size` (after a NOT, or in a bitmap with room). */
export function clearPast(bitmap: Uint32Array, size: number): void {
  const whole = size >>> 5;
  if ((size & 31) !== 0) bitmap[whole] = bitmap[whole]! & ((1 << (size & 31)) - 1);
  bitmap.fill(0, whole + ((size & 31) !== 0 ? 1 : 0));
}

/** `target` AND `bits`, word by word, into `target`. */
export function andInto(target: Uint32Array, bits: Uint32Array): void {
  for (let word = 0; word < target.length; word++) target[word] = target[word]! & bits[word]!;
}

/** `target` OR `bits`, word by word, into `target`. */
export function orInto(target: Uint32Array, bits: Uint32Array): void {
  for (let word = 0; word < target.length; word++) target[word] = target[word]! | bits[word]!;
}

/** How many bits are set in `bitmap`, and not in `without` when given. */
export function countSet(bitmap: Uint32Array, without?: Uint32Array): number {
  let count = 0;
  if (without) for (let word = 0; word < bitmap.length; word++) count += popcount(bitmap[word]! & ~without[word]!);
  else for (let word = 0; word < bitmap.length; word++) count += popcount(bitmap[word]!);
  return count;
}

function popcount(word: number): number {
  let bits = word - ((word >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The slots whose bits are set in `bitmap` (and in `within`, when given), ascending; with `from`
 * and `to`, only those of the words in between.
 */
export function setSlots(bitmap: Uint32Array, within?: Uint32Array, from = 0, to = bitmap.length): Int32Array {
  let count = 0;
  if (within) for (let word = from; word < to; word++) count += popcount(bitmap[word]! & within[word]!);
  else for (let word = from; word < to; word++) count += popcount(bitmap[word]!);
  const slots = new Int32Array(count);
  let at = 0;
  for (let word = from; word < to && at < count; word++) {
    let bits = within ? bitmap[word]! & within[word]! : bitmap[word]!;
    while (bits !== 0) {
      const low = bits & -bits;
      slots[at++] = (word << 5) + (31 - Math.clz32(low));
      bits ^= low;
    }
  }
  return slots;
}
