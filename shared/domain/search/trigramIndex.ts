/**
 * Trigram postings over one lower-cased text column of the search index (the summaries), so a
 * substring search reads the bugs that hold the needle's rarest three letters instead of every
 * bug's text: "flickers on wayland" looks at a few hundred summaries of 100,000.
 *
 * Postings only grow. A text that changes has its new trigrams added and keeps its old ones, so a
 * posting may be stale; every candidate is checked against its current text, so a stale posting
 * costs one check and never a wrong answer. Built on the first search that needs it, not with the
 * index: most instances never search summaries by substring.
 */
const MIN_NEEDLE = 3;

/** Three UTF-16 units as one key: a small integer for Latin-1 text (most summaries), a string otherwise. */
function keyAt(text: string, at: number): number | string {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  return a < 256 && b < 256 && c < 256 ? (a << 16) | (b << 8) | c : text.slice(at, at + 3);
}

export class TrigramIndex {
  private readonly postings = new Map<number | string, number[]>();

  /** `texts`: the column itself (read live), lower-cased. */
  constructor(private readonly texts: readonly string[]) {}

  static build(texts: readonly string[], size: number): TrigramIndex {
    const index = new TrigramIndex(texts);
    for (let slot = 0; slot < size; slot++) index.add(slot);
    return index;
  }

  /** Indexes the current text of a slot (a new bug, or a changed text). */
  add(slot: number): void {
    const text = this.texts[slot] ?? '';
    for (let at = 0; at + MIN_NEEDLE <= text.length; at++) {
      const key = keyAt(text, at);
      const list = this.postings.get(key);
      if (!list) this.postings.set(key, [slot]);
      // A trigram repeated in one text is posted once (slots arrive in order while building).
      else if (list[list.length - 1] !== slot) list.push(slot);
    }
  }

  /**
   * The slots (below `size`) whose text contains `needle` (lower-cased), as a 0/1 array indexed by
   * slot; null when the needle is too short for trigrams (the caller tests each text instead).
   */
  matching(needle: string, size: number): Uint8Array | null {
    if (needle.length < MIN_NEEDLE) return null;
    let rarest: number[] | undefined;
    for (let at = 0; at + MIN_NEEDLE <= needle.length; at++) {
      const list = this.postings.get(keyAt(needle, at));
      if (!list) return new Uint8Array(size);
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    const found = new Uint8Array(size);
    for (const slot of rarest!) {
      if (slot < size && found[slot] === 0 && this.texts[slot]!.includes(needle)) found[slot] = 1;
    }
    return found;
  }
}
