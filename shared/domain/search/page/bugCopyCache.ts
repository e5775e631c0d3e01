import type { Bug } from '../../bug/bug.ts';

/**
 * Copies of bugs kept by a search instance between requests, each with the revision it was read
 * or logged at (docs/data-model.md §8.7). A copy is only as good as its revision: the search
 * compares it with the revision its index holds for the bug, caught up with the change log at the
 * start of the request, and reads the bug again when the copy is older. So a page rendered from
 * copies is exactly as fresh as the search that chose its bugs, whichever instance wrote them.
 *
 * Nothing is ever replaced by an older revision, so a slow read that lands after the change log
 * brought a newer copy cannot bring the old one back.
 */
export interface BugCopy {
  readonly bug: Bug;
  readonly rev: number;
}

export class BugCopyCache {
  private readonly copies = new Map<number, BugCopy>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.copies.size;
  }

  /** The copy of a bug if it is at least at `rev`. */
  fresh(bugId: number, rev: number): BugCopy | undefined {
    const copy = this.copies.get(bugId);
    return copy && copy.rev >= rev ? copy : undefined;
  }

  /** Keeps a copy unless a newer one is already held. */
  offer(copy: BugCopy): void {
    const held = this.copies.get(copy.bug.id);
    if (held && held.rev >= copy.rev) return;
    // Re-inserted at the end, so the oldest insertions are the first to go.
    if (held) this.copies.delete(copy.bug.id);
    this.copies.set(copy.bug.id, copy);
    if (this.copies.size > this.capacity) this.evict();
  }

  /** Drops the oldest tenth: eviction runs once per many insertions, not once per insertion. */
  private evict(): void {
    let excess = this.copies.size - Math.floor(this.capacity * 0.9);
    for (const id of this.copies.keys()) {
      if (excess-- <= 0) break;
      this.copies.delete(id);
    }
  }
}
