/**
 * Bugs as a search page shows them, serialised, kept by a search instance between requests
 * (docs/data-model.md §8.7). A dashboard asks for the same pages over and over, and rendering a
 * bug (names for ids, people, field selection, JSON) costs far more than finding it.
 *
 * A text is reused only for the same bug revision and the same variant: the field selection and
 * what about the viewer changes the output (logged in or not, insider, time tracker). Everything
 * else a bug's output depends on, names of products and people included, is covered by the
 * catalogue and user counts of the instance stamp: the cache starts over when either moves. What
 * is the viewer's alone (their tags, their update token) is never kept here.
 */
interface Entry {
  rev: number;
  texts: Map<string, string>;
  /** Characters of its texts (about bytes: bug JSON is mostly ASCII). */
  size: number;
}

/** Variants kept per bug: a few field selections and viewer kinds, not every combination ever asked. */
const VARIANTS_PER_BUG = 4;

export class RenderedBugs {
  private entries = new Map<number, Entry>();
  private catalog = -1;
  private users = -1;
  private characters = 0;

  /** `capacity`: characters of text kept at most, over all bugs. */
  constructor(private readonly capacity: number) {}

  /** Characters of text kept. */
  get size(): number {
    return this.characters;
  }

  /**
   * Brings the cache to the request's stamp; false when the request read an older stamp than the
   * cache holds (a concurrent request in the same process saw a later change): it must not use
   * nor fill the cache.
   */
  useStamp(catalog: number, users: number): boolean {
    if (catalog === this.catalog && users === this.users) return true;
    if (catalog < this.catalog || users < this.users) return false;
    this.entries = new Map();
    this.characters = 0;
    this.catalog = catalog;
    this.users = users;
    return true;
  }

  get(bugId: number, rev: number, variant: string): string | undefined {
    const entry = this.entries.get(bugId);
    return entry && entry.rev === rev ? entry.texts.get(variant) : undefined;
  }

  put(bugId: number, rev: number, variant: string, text: string): void {
    // Keeping nothing (TRACKER_SEARCH_KEEP=off): storing each text only to evict it costs a page time.
    if (this.capacity <= 0) return;
    let entry = this.entries.get(bugId);
    if (entry && entry.rev > rev) return;
    if (!entry || entry.rev < rev) {
      if (entry) this.remove(bugId, entry);
      entry = { rev, texts: new Map(), size: 0 };
      this.entries.set(bugId, entry);
    }
    // The same variant again, or else the oldest variant when the bug has its share.
    const replaced = entry.texts.has(variant)
      ? variant
      : entry.texts.size >= VARIANTS_PER_BUG
        ? entry.texts.keys().next().value
        : undefined;
    if (replaced !== undefined) {
      const length = entry.texts.get(replaced)!.length;
      entry.size -= length;
      this.characters -= length;
      entry.texts.delete(replaced);
    }
    entry.texts.set(variant, text);
    entry.size += text.length;
    this.characters += text.length;
    if (this.characters > this.capacity) this.evict();
  }

  private remove(bugId: number, entry: Entry): void {
    this.entries.delete(bugId);
    this.characters -= entry.size;
  }

  /** Drops the bugs kept longest ago down to 90% of the capacity: eviction runs once per many insertions. */
  private evict(): void {
    const target = Math.floor(this.capacity * 0.9);
    for (const [id, entry] of this.entries) {
      if (this.characters <= target) break;
      this.remove(id, entry);
    }
  }
}
