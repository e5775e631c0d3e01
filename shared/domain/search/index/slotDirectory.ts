/**
 * Bug id → slot (row) of the search index. Bug ids are dense (counters, or an imported
 * Bugzilla's own ids), so an array indexed by id costs 4 bytes a bug where a Map cost 37; ids far
 * past the number of bugs (an import of an installation whose ids start high) go to a Map
 * instead, so one odd id cannot make the array huge.
 */
const NONE = -1;
/** Ids below this many times the bugs held (and below DENSE_FLOOR) are kept in the array. */
const DENSE_FACTOR = 4;
const DENSE_FLOOR = 1 << 20;

export class SlotDirectory {
  private dense = new Int32Array(1024).fill(NONE);
  private readonly sparse = new Map<number, number>();
  private count = 0;

  get(id: number): number | undefined {
    if (id >= 0 && id < this.dense.length) {
      const slot = this.dense[id]!;
      if (slot !== NONE) return slot;
    }
    // An id placed here before the array grew past it stays here.
    return this.sparse.size > 0 ? this.sparse.get(id) : undefined;
  }

  set(id: number, slot: number): void {
    this.count++;
    if (id >= 0 && id < Math.max(DENSE_FLOOR, this.count * DENSE_FACTOR)) {
      if (id >= this.dense.length) {
        const next = new Int32Array(Math.max(id + 1, this.dense.length * 2)).fill(NONE);
        next.set(this.dense);
        this.dense = next;
      }
      this.dense[id] = slot;
      return;
    }
    this.sparse.set(id, slot);
  }

  /** Every id of slots 0..size-1, as the index's id column has them: one pass, no per-id growth. */
  static of(ids: Int32Array, size: number): SlotDirectory {
    const directory = new SlotDirectory();
    let max = 0;
    for (let slot = 0; slot < size; slot++) if (ids[slot]! > max) max = ids[slot]!;
    const limit = Math.max(DENSE_FLOOR, size * DENSE_FACTOR);
    directory.dense = new Int32Array(Math.min(max, limit) + 1).fill(NONE);
    for (let slot = 0; slot < size; slot++) directory.set(ids[slot]!, slot);
    return directory;
  }
}
