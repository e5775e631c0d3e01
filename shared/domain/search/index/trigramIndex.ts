import { type EncodedPostingLists, PostingLists, type PostingWalk } from './postingLists.ts';

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

/** In candidates(): the slot's text holds the needle's rarest trigram, and is yet to be checked. */
export const CANDIDATE = 2;
/** After containsNeedle checked a candidate: its text holds the needle. */
const HOLDS = 1;
const LACKS = 0;

/**
 * TRUE (1) or FALSE (0) for each of `slots`: whether its text contains `needle`, given the marks of
 * candidates(). A candidate's text is checked once, and its answer kept in the marks.
 */
export function containsNeedle(
  marks: Uint8Array,
  texts: readonly string[],
  needle: string,
  slots: Int32Array,
  truths: Uint8Array,
): void {
  for (let i = 0; i < slots.length; i++) {
    const slot = slots[i]!;
    let mark = marks[slot]!;
    if (mark === CANDIDATE) {
      mark = texts[slot]!.includes(needle) ? HOLDS : LACKS;
      marks[slot] = mark;
    }
    truths[i] = mark;
  }
}

/**
 * The snapshot form: postings of slots, in two stores so a binary writer can keep the Latin-1 keys
 * (`(a << 16) | (b << 8) | c`) as an Int32Array and only the rarer other keys as strings.
 */
export interface EncodedTrigrams {
  latin1: Omit<EncodedPostingLists<number>, 'keys'> & { keys: Int32Array };
  other: EncodedPostingLists<string>;
}

/** Three UTF-16 units as one key: a small integer for Latin-1 text (most summaries), a string otherwise. */
function keyAt(text: string, at: number): number | string {
  const a = text.charCodeAt(at);
  const b = text.charCodeAt(at + 1);
  const c = text.charCodeAt(at + 2);
  return a < 256 && b < 256 && c < 256 ? (a << 16) | (b << 8) | c : text.slice(at, at + 3);
}

export class TrigramIndex {
  private latin1 = new PostingLists<number>();
  private other = new PostingLists<string>();

  /** `texts`: the column itself (read live), lower-cased. */
  constructor(private readonly texts: readonly string[]) {}

  static build(texts: readonly string[], size: number): TrigramIndex {
    const index = new TrigramIndex(texts);
    for (let slot = 0; slot < size; slot++) index.add(slot);
    index.latin1.compact();
    index.other.compact();
    return index;
  }

  /** The index of `toEncoded()`, over the same texts (postings are slots). */
  static fromEncoded(texts: readonly string[], encoded: EncodedTrigrams): TrigramIndex {
    const index = new TrigramIndex(texts);
    index.latin1 = PostingLists.decode(encoded.latin1);
    index.other = PostingLists.decode(encoded.other);
    return index;
  }

  /** Compacts the postings, and shares their arrays (see PostingLists.encode). */
  toEncoded(): EncodedTrigrams {
    const latin1 = this.latin1.encode();
    return { latin1: { ...latin1, keys: Int32Array.from(latin1.keys) }, other: this.other.encode() };
  }

  /** Bytes of the postings (see PostingLists.byteSize). */
  byteSize(): number {
    return this.latin1.byteSize() + this.other.byteSize();
  }

  /** Indexes the current text of a slot (a new bug, or a changed text). */
  add(slot: number): void {
    const text = this.texts[slot] ?? '';
    for (let at = 0; at + MIN_NEEDLE <= text.length; at++) {
      const key = keyAt(text, at);
      // A trigram repeated in one text is posted once (PostingLists.add skips its list's last slot).
      if (typeof key === 'number') this.latin1.add(key, slot);
      else this.other.add(key, slot);
    }
  }

  /**
   * The slots (below `size`) whose text contains `needle` (lower-cased), as a 0/1 array indexed by
   * slot; null when the needle is too short for trigrams (the caller tests each text instead).
   */
  matching(needle: string, size: number): Uint8Array | null {
    const marks = this.candidates(needle, size)?.upTo(size);
    if (!marks) return null;
    for (let slot = 0; slot < size; slot++)
      if (marks[slot] === CANDIDATE) marks[slot] = this.texts[slot]!.includes(needle) ? 1 : 0;
    return marks;
  }

  /**
   * The slots (below `size`) whose text holds the needle's rarest trigram, marked CANDIDATE as far
   * as a search asks (TrigramCandidates.upTo); null when the needle is too short for trigrams.
   * Checking a candidate's text is left to the caller, so a search that tests a few thousand slots
   * reads the postings and checks the texts of those only (containsNeedle).
   */
  candidates(needle: string, size: number): TrigramCandidates | null {
    if (needle.length < MIN_NEEDLE) return null;
    let rarest: number | string | undefined;
    let rarestCount = 0;
    for (let at = 0; at + MIN_NEEDLE <= needle.length; at++) {
      const key = keyAt(needle, at);
      const count = this.count(key);
      if (count === 0) return new TrigramCandidates(size, null);
      if (rarest === undefined || count < rarestCount) {
        rarest = key;
        rarestCount = count;
      }
    }
    return new TrigramCandidates(
      size,
      typeof rarest === 'number' ? this.latin1.walk(rarest) : this.other.walk(rarest!),
    );
  }

  private count(key: number | string): number {
    return typeof key === 'number' ? this.latin1.count(key) : this.other.count(key);
  }
}

/** The marks of TrigramIndex.candidates, filled as far as asked. */
export class TrigramCandidates {
  private readonly marks: Uint8Array;

  constructor(
    size: number,
    /** Null when some trigram of the needle is in no text: no slot is a candidate. */
    private readonly walk: PostingWalk | null,
  ) {
    this.marks = new Uint8Array(size);
  }

  /** The marks, right for every slot below `end`. */
  upTo(end: number): Uint8Array {
    const marks = this.marks;
    this.walk?.to(Math.min(end, marks.length), (slot) => {
      marks[slot] = CANDIDATE;
    });
    return marks;
  }
}
