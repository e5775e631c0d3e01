/**
 * Posting lists (key → slots, the row numbers of bugs) in about 1.2 bytes a posting instead of the
 * ~10 a JS number array costs, so a million bugs' comment words and summary trigrams fit in memory.
 *
 * The "base" is every list as ascending slots, coded as LEB128 varints of their gaps (the first
 * value is the slot itself) in one shared byte array; list `id` spans `bytes[offsets[id]]` to
 * `bytes[offsets[id + 1]]` and holds `counts[id]` postings. The base is never written in place: a
 * snapshot hands its arrays in (decode) and gets them out (encode) without copying or decoding a
 * posting, which is what makes a cold start cheap.
 *
 * Slots added later go to the list's "tail", in arrival order, in blocks of one shared Int32Array
 * pool, so an add is O(1) however long the list (a comment on an old bug decodes nothing) and a
 * list costs no object of its own. `compact()` folds the tails into a new base; it also runs by
 * itself once the tails hold a quarter of the base's postings, which bounds a bulk build's memory
 * while keeping adds amortised O(1) (each compaction copies the base once, and the base at least
 * grows by that quarter in between).
 *
 * A list may hold a slot twice (a bug re-indexed after a change: the tail is not searched for it).
 * Readers mark each slot once anyway, and `encode()` sorts and deduplicates.
 */

/** A store's snapshot form: every list sorted and deduplicated, keyed in `keys` order. */
export interface EncodedPostingLists<K> {
  keys: K[];
  bytes: Uint8Array;
  /** List `i` is `bytes[offsets[i]]` to `bytes[offsets[i + 1]]`: length `keys.length + 1`. */
  offsets: Uint32Array;
  counts: Uint32Array;
}

/** Pool index 0 is never a block, so zero-filled per-list arrays mean "no tail". */
const NO_TAIL = 0;
/** A block: [next block, capacity, used, ...slots]. */
const NEXT = 0;
const CAPACITY = 1;
const USED = 2;
const HEADER = 3;
const FIRST_BLOCK = 2;
/** Blocks double up to this, so a long tail wastes at most one block's slack. */
const LARGEST_BLOCK = 1024;
/** A base list whose last slot is not known yet (after decode: finding it means decoding the list). */
const UNKNOWN_LAST = -1;
/** Tails smaller than this never trigger a compaction (a small store compacts when asked). */
const MIN_AUTOMATIC_COMPACTION = 1 << 20;

function varintLength(value: number): number {
  return value < 0x80 ? 1 : value < 0x4000 ? 2 : value < 0x200000 ? 3 : value < 0x10000000 ? 4 : 5;
}

function writeVarint(bytes: Uint8Array, at: number, value: number): number {
  while (value >= 0x80) {
    bytes[at++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  bytes[at++] = value;
  return at;
}

function grown(array: Int32Array, atLeast: number): Int32Array {
  const larger = new Int32Array(Math.max(atLeast, array.length * 2, 16));
  larger.set(array);
  return larger;
}

export class PostingLists<K extends string | number> {
  private readonly ids = new Map<K, number>();
  /** A list id's key; undefined once removeSlot emptied it (a later add of the key takes a new id). */
  private keysById: (K | undefined)[] = [];
  private deadLists = 0;

  private bytes: Uint8Array = new Uint8Array(0);
  private offsets: Uint32Array = new Uint32Array(1);
  private counts: Uint32Array = new Uint32Array(0);
  /** Lists with ids below this have a base part. */
  private baseLists = 0;
  private basePostings = 0;
  /** Per list id (capacity-sized, like the tail arrays): the base's last slot, or UNKNOWN_LAST. */
  private baseLast: Int32Array = new Int32Array(0);

  private tailHead: Int32Array = new Int32Array(0);
  private tailBlock: Int32Array = new Int32Array(0);
  private tailCount: Int32Array = new Int32Array(0);
  private pool: Int32Array = new Int32Array(64);
  private poolUsed = 1;
  private tailPostings = 0;
  private compactAt = MIN_AUTOMATIC_COMPACTION;

  /** Number of keys with at least one posting. */
  get size(): number {
    return this.ids.size;
  }

  has(key: K): boolean {
    return this.ids.has(key);
  }

  keys(): IterableIterator<K> {
    return this.ids.keys();
  }

  /** Postings of the key, base and tail, duplicates included. */
  count(key: K): number {
    const id = this.ids.get(key);
    if (id === undefined) return 0;
    return (id < this.baseLists ? this.counts[id]! : 0) + this.tailCount[id]!;
  }

  /**
   * Posts `slot` under `key`, unless it is already the list's last posting (a key repeated in one
   * bug). Slots are integers in [0, 2^31). Until a compaction, a decoded list's last slot is not
   * known (finding it means decoding the list), so the first add to it may repeat that slot.
   */
  add(key: K, slot: number): void {
    if ((slot | 0) !== slot || slot < 0) throw new RangeError(`Not a slot: ${slot}`);
    let id = this.ids.get(key);
    if (id === undefined) id = this.newList(key);
    const block = this.tailBlock[id]!;
    if (block !== NO_TAIL) {
      if (this.pool[block + HEADER + this.pool[block + USED]! - 1] === slot) return;
    } else if (id < this.baseLists && this.counts[id]! > 0 && this.baseLast[id] === slot) return;
    this.appendToTail(id, slot);
    if (this.tailPostings >= this.compactAt) this.compact();
  }

  /**
   * Calls `visit` with each posting of `key`: the base's in ascending order, then the tail's in
   * arrival order. The store must not change during the walk.
   */
  forEach(key: K, visit: (slot: number) => void): void {
    const id = this.ids.get(key);
    if (id === undefined) return;
    if (id < this.baseLists) this.forEachBase(id, visit);
    this.forEachTail(id, visit);
  }

  /**
   * A walk over the postings of `key` a range of slots at a time (PostingWalk): a search that tests
   * the first few thousand slots of a million reads only the postings below them. The store must
   * not change while the walk is used.
   */
  walk(key: K): PostingWalk {
    const id = this.ids.get(key);
    return new PostingWalk(
      this,
      id === undefined || id >= this.baseLists ? -1 : id,
      id === undefined ? NO_TAIL : this.tailHead[id]!,
    );
  }

  /** @internal PostingWalk's reader of the base: from byte `at`, `left` postings after `slot`, those below `end`. */
  readBase(cursor: { at: number; slot: number; left: number }, end: number, visit: (slot: number) => void): void {
    const bytes = this.bytes;
    let { at, slot, left } = cursor;
    while (left > 0) {
      let next = at;
      let byte = bytes[next++]!;
      let gap = byte & 0x7f;
      for (let shift = 7; byte >= 0x80; shift += 7) {
        byte = bytes[next++]!;
        gap |= (byte & 0x7f) << shift;
      }
      if (slot + gap >= end) break;
      slot += gap;
      at = next;
      left--;
      visit(slot);
    }
    cursor.at = at;
    cursor.slot = slot;
    cursor.left = left;
  }

  /** @internal PostingWalk's reader of the tail: its postings in [from, end), in arrival order. */
  readTail(head: number, from: number, end: number, visit: (slot: number) => void): void {
    const pool = this.pool;
    for (let block = head; block !== NO_TAIL; block = pool[block + NEXT]!) {
      const last = block + HEADER + pool[block + USED]!;
      for (let at = block + HEADER; at < last; at++) {
        const slot = pool[at]!;
        if (slot >= from && slot < end) visit(slot);
      }
    }
  }

  /** @internal */
  baseStart(id: number): { at: number; slot: number; left: number } {
    return { at: this.offsets[id]!, slot: 0, left: this.counts[id]! };
  }

  /** Folds every tail into a new base (a bulk build calls it once at the end). */
  compact(): void {
    this.rebuildBase(-1);
  }

  /**
   * Takes `slot` out of every list, and drops the lists it leaves empty. Decodes every base list up
   * to the slot and copies the base once, O(total postings): it runs when a comment's privacy
   * changes, which is rare. Folds the tails in on the way.
   */
  removeSlot(slot: number): void {
    if ((slot | 0) !== slot || slot < 0) return;
    this.rebuildBase(slot);
  }

  /**
   * The snapshot form. Compacts first, so the store is left compact too. The arrays are the store's
   * own base, which is never written in place: share them, don't write to them.
   */
  encode(): EncodedPostingLists<K> {
    this.compact();
    if (this.deadLists === 0) {
      return { keys: this.keysById.slice() as K[], bytes: this.bytes, offsets: this.offsets, counts: this.counts };
    }
    // An emptied list spans no bytes, so leaving it out keeps the others' bytes where they are.
    const live = this.keysById.length - this.deadLists;
    const keys: K[] = new Array(live);
    const offsets = new Uint32Array(live + 1);
    const counts = new Uint32Array(live);
    let at = 0;
    this.keysById.forEach((key, id) => {
      if (key === undefined) return;
      keys[at] = key;
      offsets[at] = this.offsets[id]!;
      counts[at++] = this.counts[id]!;
    });
    offsets[live] = this.bytes.length;
    return { keys, bytes: this.bytes, offsets, counts };
  }

  /**
   * A store whose base is `encoded`'s arrays as they are (no posting is decoded: O(keys)). `keys`
   * may be any array-like, such as an Int32Array of numeric keys.
   */
  static decode<K extends string | number>(encoded: {
    keys: ArrayLike<K>;
    bytes: Uint8Array;
    offsets: Uint32Array;
    counts: Uint32Array;
  }): PostingLists<K> {
    const { bytes, offsets, counts } = encoded;
    const lists = encoded.keys.length;
    if (offsets.length !== lists + 1 || counts.length !== lists || offsets[lists]! > bytes.length) {
      throw new Error('Posting lists: offsets or counts do not match the keys');
    }
    const store = new PostingLists<K>();
    store.keysById = Array.from(encoded.keys);
    store.keysById.forEach((key, id) => {
      store.ids.set(key!, id);
    });
    if (store.ids.size !== lists) throw new Error('Posting lists: a key appears twice');
    store.bytes = bytes;
    store.offsets = offsets;
    store.counts = counts;
    store.baseLists = lists;
    store.basePostings = counts.reduce((sum, count) => sum + count, 0);
    store.baseLast = new Int32Array(lists).fill(UNKNOWN_LAST);
    store.tailHead = new Int32Array(lists);
    store.tailBlock = new Int32Array(lists);
    store.tailCount = new Int32Array(lists);
    store.compactAt = Math.max(MIN_AUTOMATIC_COMPACTION, store.basePostings >> 2);
    return store;
  }

  /** Bytes of the base and of the tails (the keys and their map are not counted). */
  byteSize(): number {
    return (
      this.bytes.byteLength +
      this.offsets.byteLength +
      this.counts.byteLength +
      this.baseLast.byteLength +
      this.tailHead.byteLength +
      this.tailBlock.byteLength +
      this.tailCount.byteLength +
      this.pool.byteLength
    );
  }

  /** Postings in the base, and in the tails. */
  postings(): { base: number; tails: number } {
    return { base: this.basePostings, tails: this.tailPostings };
  }

  private newList(key: K): number {
    const id = this.keysById.length;
    if (id >= this.tailHead.length) {
      this.baseLast = grown(this.baseLast, id + 1);
      this.tailHead = grown(this.tailHead, id + 1);
      this.tailBlock = grown(this.tailBlock, id + 1);
      this.tailCount = grown(this.tailCount, id + 1);
    }
    this.keysById.push(key);
    this.ids.set(key, id);
    return id;
  }

  private appendToTail(id: number, slot: number): void {
    const block = this.tailBlock[id]!;
    if (block !== NO_TAIL && this.pool[block + USED]! < this.pool[block + CAPACITY]!) {
      const used = this.pool[block + USED]!;
      this.pool[block + HEADER + used] = slot;
      this.pool[block + USED] = used + 1;
    } else {
      const capacity = block === NO_TAIL ? FIRST_BLOCK : Math.min(this.pool[block + CAPACITY]! * 2, LARGEST_BLOCK);
      const next = this.allocateBlock(capacity);
      if (block === NO_TAIL) this.tailHead[id] = next;
      else this.pool[block + NEXT] = next;
      this.tailBlock[id] = next;
      this.pool[next + HEADER] = slot;
      this.pool[next + USED] = 1;
    }
    this.tailCount[id]!++;
    this.tailPostings++;
  }

  private allocateBlock(capacity: number): number {
    const block = this.poolUsed;
    if (block + HEADER + capacity > this.pool.length) this.pool = grown(this.pool, block + HEADER + capacity);
    this.pool[block + NEXT] = NO_TAIL;
    this.pool[block + CAPACITY] = capacity;
    this.pool[block + USED] = 0;
    this.poolUsed = block + HEADER + capacity;
    return block;
  }

  private tailSlots(id: number): Int32Array {
    const slots = new Int32Array(this.tailCount[id]!);
    let at = 0;
    this.forEachTail(id, (slot) => {
      slots[at++] = slot;
    });
    return slots;
  }

  private forEachTail(id: number, visit: (slot: number) => void): void {
    const pool = this.pool;
    for (let block = this.tailHead[id]!; block !== NO_TAIL; block = pool[block + NEXT]!) {
      const end = block + HEADER + pool[block + USED]!;
      for (let at = block + HEADER; at < end; at++) visit(pool[at]!);
    }
  }

  private baseSlots(id: number): Int32Array {
    const slots = new Int32Array(id < this.baseLists ? this.counts[id]! : 0);
    let at = 0;
    if (slots.length > 0) {
      this.forEachBase(id, (slot) => {
        slots[at++] = slot;
      });
    }
    return slots;
  }

  private forEachBase(id: number, visit: (slot: number) => void): void {
    this.readBase(this.baseStart(id), Number.POSITIVE_INFINITY, visit);
  }

  private lastOfBase(id: number): number {
    if (this.baseLast[id] === UNKNOWN_LAST) {
      this.forEachBase(id, (slot) => {
        this.baseLast[id] = slot;
      });
    }
    return this.baseLast[id]!;
  }

  private baseHolds(id: number, wanted: number): boolean {
    let found = false;
    // The base is ascending: only its postings up to `wanted` are decoded.
    this.readBase(this.baseStart(id), wanted + 1, (slot) => {
      if (slot === wanted) found = true;
    });
    return found;
  }

  /**
   * A new base holding base and tails, less `without` (-1: nothing to remove). A list whose tail
   * continues its base in ascending order (the usual case: new bugs take new slots) keeps its
   * base bytes and gets the tail's gaps appended; any other list touched is decoded, merged and
   * recoded.
   */
  private rebuildBase(without: number): void {
    const lists = this.keysById.length;
    if (without < 0 && this.tailPostings === 0 && lists === this.baseLists) return;
    // Pass 1: each list's new length, count and last slot; the lists that need recoding.
    const lengths = new Uint32Array(lists);
    const counts = new Uint32Array(lists);
    const lasts = new Int32Array(lists);
    const recoded = new Map<number, Int32Array>();
    let changed = false;
    for (let id = 0; id < lists; id++) {
      const inBase = id < this.baseLists ? this.counts[id]! : 0;
      const baseBytes = inBase > 0 ? this.offsets[id + 1]! - this.offsets[id]! : 0;
      if (without >= 0 && inBase > 0 && this.baseHolds(id, without)) {
        changed = true;
        const slots = this.mergedSlots(id, without);
        recoded.set(id, slots);
        this.planRecoded(id, slots, lengths, counts, lasts);
        continue;
      }
      lengths[id] = baseBytes;
      counts[id] = inBase;
      lasts[id] = inBase > 0 ? this.baseLast[id]! : UNKNOWN_LAST;
      if (this.tailCount[id] === 0) continue;
      changed = true;
      let previous = inBase > 0 ? this.lastOfBase(id) : -1;
      let length = baseBytes;
      let added = 0;
      let ascending = true;
      this.forEachTail(id, (slot) => {
        if (!ascending || slot === previous || slot === without) return;
        if (slot < previous) ascending = false;
        length += varintLength(previous < 0 ? slot : slot - previous);
        previous = slot;
        added++;
      });
      if (ascending) {
        lengths[id] = length;
        counts[id] = inBase + added;
        lasts[id] = previous;
      } else {
        const slots = this.mergedSlots(id, without);
        recoded.set(id, slots);
        this.planRecoded(id, slots, lengths, counts, lasts);
      }
    }
    if (!changed) return;

    // Pass 2: the new base. Runs of untouched lists are copied at once.
    const total = lengths.reduce((sum, length) => sum + length, 0);
    const bytes = new Uint8Array(total);
    const offsets = new Uint32Array(lists + 1);
    let at = 0;
    let runFrom = -1;
    let runTo = 0;
    const flushRun = () => {
      if (runFrom >= 0) bytes.set(this.bytes.subarray(runFrom, runFrom + (at - runTo)), runTo);
      runFrom = -1;
    };
    for (let id = 0; id < lists; id++) {
      offsets[id] = at;
      const slots = recoded.get(id);
      if (slots === undefined && this.tailCount[id] === 0) {
        if (runFrom < 0 && lengths[id]! > 0) {
          runFrom = this.offsets[id]!;
          runTo = at;
        }
        at += lengths[id]!;
        continue;
      }
      flushRun();
      if (slots !== undefined) {
        let previous = 0;
        for (const slot of slots) {
          at = writeVarint(bytes, at, slot - previous);
          previous = slot;
        }
        continue;
      }
      const inBase = id < this.baseLists ? this.counts[id]! : 0;
      let previous = -1;
      if (inBase > 0) {
        bytes.set(this.bytes.subarray(this.offsets[id]!, this.offsets[id + 1]!), at);
        at += this.offsets[id + 1]! - this.offsets[id]!;
        previous = this.lastOfBase(id);
      }
      this.forEachTail(id, (slot) => {
        if (slot === previous || slot === without) return;
        at = writeVarint(bytes, at, previous < 0 ? slot : slot - previous);
        previous = slot;
      });
    }
    flushRun();
    offsets[lists] = at;

    this.bytes = bytes;
    this.offsets = offsets;
    this.counts = counts;
    this.baseLists = lists;
    this.basePostings = counts.reduce((sum, count) => sum + count, 0);
    this.baseLast.set(lasts);
    this.tailHead.fill(NO_TAIL);
    this.tailBlock.fill(NO_TAIL);
    this.tailCount.fill(0);
    this.pool = new Int32Array(64);
    this.poolUsed = 1;
    this.tailPostings = 0;
    this.compactAt = Math.max(MIN_AUTOMATIC_COMPACTION, this.basePostings >> 2);
    for (let id = 0; id < lists; id++) {
      const key = this.keysById[id];
      if (counts[id] !== 0 || key === undefined) continue;
      this.ids.delete(key);
      this.keysById[id] = undefined;
      this.deadLists++;
    }
  }

  /** Base and tail of a list, sorted, deduplicated, without `without`. */
  private mergedSlots(id: number, without: number): Int32Array {
    const tail = this.tailSlots(id).sort();
    const base = this.baseSlots(id);
    const merged = new Int32Array(base.length + tail.length);
    let length = 0;
    let inBase = 0;
    let inTail = 0;
    while (inBase < base.length || inTail < tail.length) {
      const slot =
        inTail >= tail.length || (inBase < base.length && base[inBase]! <= tail[inTail]!)
          ? base[inBase++]!
          : tail[inTail++]!;
      if (slot !== without && (length === 0 || merged[length - 1] !== slot)) merged[length++] = slot;
    }
    return merged.subarray(0, length);
  }

  private planRecoded(id: number, slots: Int32Array, lengths: Uint32Array, counts: Uint32Array, lasts: Int32Array) {
    let length = 0;
    let previous = 0;
    for (const slot of slots) {
      length += varintLength(slot - previous);
      previous = slot;
    }
    lengths[id] = length;
    counts[id] = slots.length;
    lasts[id] = slots.length > 0 ? slots[slots.length - 1]! : UNKNOWN_LAST;
  }
}

/**
 * The postings of one key, visited in ranges of slots that follow each other: `to(end)` visits
 * those from where the last call stopped up to `end` (exclusive). The base list is ascending, so it
 * is decoded once over the whole walk; the tail (short, in arrival order) is scanned per range.
 * A slot posted twice is visited twice, as forEach does.
 */
export class PostingWalk {
  private reached = 0;
  private readonly base: { at: number; slot: number; left: number } | null;

  constructor(
    private readonly lists: Pick<PostingLists<string>, 'readBase' | 'readTail' | 'baseStart'>,
    baseId: number,
    private readonly tailHead: number,
  ) {
    this.base = baseId < 0 ? null : lists.baseStart(baseId);
  }

  /** How far the walk has visited: every posting below this slot. */
  get end(): number {
    return this.reached;
  }

  to(end: number, visit: (slot: number) => void): void {
    if (end <= this.reached) return;
    if (this.base) this.lists.readBase(this.base, end, visit);
    if (this.tailHead !== NO_TAIL) this.lists.readTail(this.tailHead, this.reached, end, visit);
    this.reached = end;
  }
}
