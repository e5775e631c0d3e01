/** What a kept result needs of the search index (searchIndex.ts): its slots, and which changed since a version. */
export interface JournaledSlots {
  readonly size: number;
  readonly version: number;
  changedSince(version: number): readonly number[] | null;
  allSlots(): Int32Array;
}

/**
 * The result of a criterion over every slot of the index, kept between searches: a dashboard
 * repeats the same few criteria ("open bugs", "product Browser", the words of a saved quicksearch)
 * on every refresh, and looking a kept result up costs a tenth of computing it. A kept result is
 * brought up to date before use by recomputing only the slots changed since (the index's journal),
 * so it is exactly as fresh as the index. Only criteria that depend on nothing but the index and
 * the catalogue objects of the request are kept; the caller passes a key naming all of it.
 */
interface Entry {
  table: Uint8Array;
  version: number;
  /** The slots that are TRUE, ascending, as of `listVersion`: a search that keeps few bugs of 100,000 reads these instead of the table. */
  list?: Int32Array;
  listVersion?: number;
}

/** Kept results: at 100,000 bugs each is 100 KB. */
const MAX_TABLES = 256;

export type SlotKernel = (slots: Int32Array, truths: Uint8Array) => void;

export class LeafTables {
  private readonly tables = new Map<string, Entry>();
  /** False when the installation keeps nothing between searches (TRACKER_SEARCH_KEEP=off): every result is computed afresh. */
  enabled = true;
  /** The catalogue objects the kept results were computed with: other objects mean another catalogue. */
  private catalog: readonly unknown[] = [];

  /** Criteria asked for by one search and not kept yet, with that search. */
  private readonly seenOnce = new Map<string, object>();

  /**
   * Whether a criterion's result is kept (looked up, or made over the whole index) for the search
   * `asker`: once it is kept, or when an earlier search asked for it too. A new instance's first
   * search and one-off criteria are computed over their candidates only: making a table over a
   * million bugs cost a new instance's first answer 0.15 s, for criteria most often never asked
   * for again.
   */
  worthKeeping(key: string, asker: object): boolean {
    if (!this.enabled) return false;
    if (this.tables.has(key)) return true;
    const first = this.seenOnce.get(key);
    if (first !== undefined && first !== asker) {
      this.seenOnce.delete(key);
      return true;
    }
    if (first === undefined) {
      if (this.seenOnce.size >= MAX_TABLES) this.seenOnce.delete(this.seenOnce.keys().next().value!);
      this.seenOnce.set(key, asker);
    }
    return false;
  }

  /** The slots whose truth is TRUE, ascending (the same kept result as `table`). */
  trueSlots(index: JournaledSlots, key: string, catalog: readonly unknown[], compute: SlotKernel): Int32Array {
    const table = this.table(index, key, catalog, compute);
    const entry = this.tables.get(key)!;
    if (entry.list && entry.listVersion === entry.version && entry.table === table) return entry.list;
    const list = slotsWhereTrue(table);
    entry.list = list;
    entry.listVersion = entry.version;
    return list;
  }

  /** The criterion's truth for every slot, indexed by slot; `compute` fills truths for a list of slots. */
  table(index: JournaledSlots, key: string, catalog: readonly unknown[], compute: SlotKernel): Uint8Array {
    if (catalog.length !== this.catalog.length || catalog.some((part, position) => part !== this.catalog[position])) {
      this.tables.clear();
      this.catalog = catalog;
    }
    const entry = this.tables.get(key);
    if (entry) {
      const changed = index.changedSince(entry.version);
      if (changed !== null) {
        this.tables.delete(key);
        this.tables.set(key, entry);
        if (changed.length === 0 && entry.table.length === index.size) return entry.table;
        if (entry.table.length !== index.size) {
          const grown = new Uint8Array(index.size);
          grown.set(entry.table.subarray(0, Math.min(entry.table.length, index.size)));
          entry.table = grown;
        }
        const slots = Int32Array.from(new Set(changed));
        const truths = new Uint8Array(slots.length);
        compute(slots, truths);
        for (let i = 0; i < slots.length; i++) entry.table[slots[i]!] = truths[i]!;
        entry.version = index.version;
        return entry.table;
      }
    }
    const table = new Uint8Array(index.size);
    compute(index.allSlots(), table);
    this.tables.delete(key);
    this.tables.set(key, { table, version: index.version });
    if (this.tables.size > MAX_TABLES) this.tables.delete(this.tables.keys().next().value!);
    return table;
  }
}

/** The slots (indexes) whose truth in `table` is TRUE (1), ascending. */
export function slotsWhereTrue(table: Uint8Array): Int32Array {
  let count = 0;
  for (let slot = 0; slot < table.length; slot++) if (table[slot] === 1) count++;
  const list = new Int32Array(count);
  for (let slot = 0, at = 0; slot < table.length; slot++) if (table[slot] === 1) list[at++] = slot;
  return list;
}
